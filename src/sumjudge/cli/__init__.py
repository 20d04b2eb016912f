"""The `sumjudge` command line: one module per subcommand."""
