"""Nothing lost, nothing clobbered: the CLI's checks on the files it reads and writes.

- `check_inputs` makes sure every input file exists, is a file and can be read, before
  the run starts (so the error names the file).
- `check_outputs` refuses an output that is, or resolves to (symlink, hard link, same
  inode), one of the command's inputs or another of its outputs, and an output whose
  folder does not exist. `main` runs both for every subcommand *before anything is opened
  for writing*, from the `CommandPaths` the subcommand declares with
  `parser.set_defaults(paths=...)`.
- `atomic_write_text` writes a whole file through a temporary file beside it, renamed
  into place once complete, so a failed write never leaves a partial file where a good
  one was.
- `RunInterrupted` is what an interrupted batch (Ctrl-C) raises once its output is safe:
  how many items it wrote and where; `resume_command` is the command line that continues.
- `describe_os_error` is the one-line form of an OS error, with what to do about it.

Only the standard library is used here: `sumjudge.cli.main` must import fast.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import shlex
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError

__all__ = [
    "CommandPaths",
    "NamedPath",
    "PathsOf",
    "RunInterrupted",
    "atomic_write_text",
    "check_command_paths",
    "check_inputs",
    "check_outputs",
    "describe_os_error",
    "is_regular_or_missing",
    "named_errors",
    "resume_command",
    "same_file",
]

NamedPath = tuple[str, "str | os.PathLike[str] | None"]
"""A path with the flag it came from, e.g. `("-o/--output", "out.jsonl")`; None: not given."""


@dataclass(frozen=True)
class CommandPaths:
    """The files one command line reads and writes, each with its flag.

    Attributes:
        inputs: files read; each must exist and be readable.
        outputs: files written; none may be an input, a state file or another output.
        state: files read and written back, which may not exist yet (e.g. a cache); an
            output must not be one of them either.
    """

    inputs: list[NamedPath] = field(default_factory=list)
    outputs: list[NamedPath] = field(default_factory=list)
    state: list[NamedPath] = field(default_factory=list)


class RunInterrupted(KeyboardInterrupt):
    """A batch was interrupted after its output was closed safely.

    A `KeyboardInterrupt`, so that nothing catching `Exception` swallows it.

    Attributes:
        written: items this run wrote before the interrupt.
        kept: finished items kept from an earlier run (`--resume`).
        path: the file that holds them (the partial file, or the output itself); None
            for stdout.
        target: the output file the run was asked to write (None: stdout).
    """

    def __init__(
        self, *, written: int, kept: int = 0, path: Path | None, target: Path | None
    ) -> None:
        super().__init__(f"interrupted after {written} item(s)")
        self.written = written
        self.kept = kept
        self.path = path
        self.target = target


def _label(flag: str, path: str | os.PathLike[str]) -> str:
    return f"{flag} {os.fspath(path)}"


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether `a` and `b` are one file: same inode when both exist, else same real path."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _how_same(output: str | os.PathLike[str], other: str | os.PathLike[str]) -> str:
    if os.path.islink(output):
        return " (through a symlink)"
    with contextlib.suppress(OSError):
        if os.path.abspath(output) != os.path.abspath(other) and os.stat(output).st_nlink > 1:
            return " (a hard link to it)"
    return ""


def is_regular_or_missing(path: str | os.PathLike[str]) -> bool:
    """True unless `path` exists as something other than a regular file (a device, a pipe).

    Such a target (`/dev/null`, `/dev/stdout`, a FIFO) is written in place: it cannot be
    replaced by a rename, and must not be.
    """
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return True  # let the real open report it


def _check_folder(flag: str, path: str | os.PathLike[str]) -> None:
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{_label(flag, path)} is a folder (give a file path to write)")
    parent = p.parent
    if not parent.exists():
        raise ConfigError(
            f"{_label(flag, path)}: the folder {parent} does not exist "
            f"(create it first, e.g. mkdir -p {shlex.quote(str(parent))})"
        )
    if not parent.is_dir():
        raise ConfigError(f"{_label(flag, path)}: {parent} is not a folder (choose another path)")


def check_outputs(inputs: Sequence[NamedPath], outputs: Sequence[NamedPath]) -> None:
    """Refuse outputs that would overwrite an input or each other, or have no folder.

    Args:
        inputs: (flag, path) of every file the command reads; None paths are skipped.
        outputs: (flag, path) of every file the command writes; None paths are skipped.

    Raises:
        ConfigError: one line naming the output (flag and path) and the file it would
            overwrite, or the missing folder.
    """
    seen: list[tuple[str, str | os.PathLike[str]]] = []
    for oflag, opath in outputs:
        if opath is None or os.fspath(opath) == "":
            continue
        for iflag, ipath in inputs:
            if ipath is not None and os.fspath(ipath) != "" and same_file(opath, ipath):
                raise ConfigError(
                    f"{_label(oflag, opath)} is the input {_label(iflag, ipath)}"
                    f"{_how_same(opath, ipath)}: writing it would destroy the input "
                    f"(choose another {oflag.split()[0]} path)"
                )
        for sflag, spath in seen:
            if same_file(opath, spath) and is_regular_or_missing(opath):
                raise ConfigError(
                    f"{_label(oflag, opath)} is the same file as {_label(sflag, spath)} "
                    f"(give each output its own path)"
                )
        _check_folder(oflag, opath)
        seen.append((oflag, opath))


def check_inputs(inputs: Sequence[NamedPath]) -> None:
    """Make sure every input exists, is a file and is readable.

    Decoding is the readers' business: a line that does not decode fails that row only
    (`--encoding` picks another encoding), so a file is not refused whole for one bad line.

    Raises:
        ConfigError: one line naming the flag and the file, and what to do.
    """
    for flag, path in inputs:
        if path is None:
            continue
        label = _label(flag, path)
        p = Path(path)
        if not p.exists():
            hint = "" if p.parent.is_dir() else f" (the folder {p.parent} does not exist)"
            raise ConfigError(f"{label}: no such file{hint} (check the path)")
        if p.is_dir():
            raise ConfigError(f"{label} is a folder (give the file inside it)")
        if not is_regular_or_missing(p):
            continue  # a pipe or device: read as it comes
        try:
            with p.open("rb"):
                pass
        except PermissionError:
            raise ConfigError(
                f"{label}: permission denied (make it readable, e.g. chmod u+r, "
                "or run as its owner)"
            ) from None


def check_command_paths(paths: CommandPaths) -> None:
    """`check_inputs` on the inputs, then `check_outputs` against inputs and state files."""
    check_inputs(paths.inputs)
    check_outputs([*paths.inputs, *paths.state], paths.outputs)


PathsOf = Callable[[argparse.Namespace], CommandPaths]
"""What a subcommand declares with `set_defaults(paths=...)`: its files from its flags."""


def _real_target(path: Path) -> Path:
    """Where a write to `path` must land: through a symlink, to the file it points to."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write_text(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write `text` to `path` whole or not at all.

    The text goes to a temporary file in the same folder, is flushed to disk and renamed
    over `path` (the temporary file is removed if anything fails). A symlink is written
    through (the file it points to is replaced and the link stays); an existing file keeps
    its permissions. A device or pipe (`/dev/null`, `/dev/stdout`) is written in place.

    Raises:
        ConfigError: the folder does not exist.
        OSError: the write failed (e.g. disk full), with the file name set.
    """
    target = _real_target(Path(path))
    if not is_regular_or_missing(target):
        with named_errors(target), target.open("w", encoding=encoding) as fh:
            fh.write(text)
        return
    folder = target.parent
    if not folder.is_dir():
        raise ConfigError(
            f"{os.fspath(path)}: the folder {folder} does not exist (create it first, "
            f"e.g. mkdir -p {shlex.quote(str(folder))})"
        )
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with named_errors(target), os.fdopen(fd, "w", encoding=encoding) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def named_errors(path: Path) -> Iterator[None]:
    """Give an OS error raised by a write on an open file the file's name."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise


_ADVICE = {
    errno.ENOENT: "check the path",
    errno.EISDIR: "give a file, not a folder",
    errno.ENOTDIR: "a part of the path is not a folder; check the path",
    errno.EACCES: "check its permissions or choose another path",
    errno.EPERM: "check its permissions or choose another path",
    errno.ENOSPC: "free some disk space, then rerun; a batch continues with --resume",
    errno.EDQUOT: "free some space within your quota, then rerun",
    errno.EROFS: "the file system is read-only; choose another path",
    errno.EFBIG: "the file is too large for this file system; choose another path",
    errno.ENAMETOOLONG: "use a shorter path",
    errno.EMFILE: "too many open files; raise the limit (ulimit -n) or lower --concurrency",
}


def describe_os_error(exc: OSError) -> str:
    """One line for an OS error: the file, what went wrong and what to do."""
    what = exc.strerror or str(exc) or type(exc).__name__
    advice = _ADVICE.get(exc.errno or 0, "check the file and try again")
    names = [os.fspath(n) for n in (exc.filename, exc.filename2) if n is not None]
    where = " -> ".join(str(n) for n in names)
    return f"{where}: {what} ({advice})" if where else f"{what} ({advice})"


def resume_command(argv: Sequence[str], prog: str = "sumjudge") -> str:
    """The command line that continues an interrupted run: `argv` with `--resume`."""
    args = list(argv)
    if "--resume" not in args:
        args.append("--resume")
    return shlex.join([prog, *args])
