"""The command line run in the test's own process, as a script would run it: its input
piped in, its output and errors read, its exit status (`run_cli`). The imports and the
compiled kernels are the test process's, paid once, not at every start of a process."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from click.testing import CliRunner

__all__ = ["Ran", "run_cli"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ran:
    """What a run of the command line gave (`subprocess.CompletedProcess`'s names)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(args: list[str], script: str, env: Mapping[str, str]) -> Ran:
    """``baccara ARGS`` with ``script`` as its input and ``env`` over the environment
    (through `baccara.cli.main`: its errors as one line and its exit statuses).

    >>> ran = run_cli(["play", "--no-such-option"], "", {})
    >>> ran.returncode, ran.stderr.splitlines()[0].startswith("baccara: error: No such option")
    (2, True)
    """
    from baccara.cli import main

    with CliRunner().isolation(input=script, env=dict(env)) as (out, err, _):
        code = main(args)
        return Ran(
            returncode=code,
            stdout=out.getvalue().decode("utf-8", "replace"),
            stderr=err.getvalue().decode("utf-8", "replace"),
        )
