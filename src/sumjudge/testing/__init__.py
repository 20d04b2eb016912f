"""Test and benchmark helpers for sumjudge (local fake servers; no network)."""
