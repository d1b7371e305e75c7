"""The docs cannot drift: every example in README.md and docs/*.md runs here.

* ``>>>`` examples are doctests (NORMALIZE_WHITESPACE and ELLIPSIS), one test per file.
  A ```` ```python ```` block must hold ``>>>`` examples (or a ``--8<--`` include of a
  file under docs/examples/, which the command-line examples run), so no code goes
  untested; and an expected output must end with a blank line before its closing
  fence, so that the fence is never read as output.
* ```` ```console ```` blocks: each ``$ drawdsl ...`` line runs the command in this
  process and its output (stdout and stderr) must match the lines that follow.  Commands
  run in docs/examples/ for pages under docs/, and at the repository root for README.md.
* The notebook docs/examples.ipynb runs with nbclient when it is installed.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from pathlib import Path

import pytest

from drawdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted([ROOT / "README.md", *DOCS.glob("*.md")])
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)


def _blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(page.read_text()) if lang == language]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


# --------------------------------------------------------------------------- doctests


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_doctests_in_page(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {_name(page)} failed"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_python_blocks_are_tested(page: Path) -> None:
    for body in _blocks(page, "python") + _blocks(page, "pycon"):
        assert ">>>" in body or body.strip().startswith("--8<--"), (
            f"{_name(page)}: a python block without >>> examples would not be tested:\n{body}"
        )
    parser = doctest.DocTestParser()
    for example in parser.get_examples(page.read_text()):
        assert "```" not in example.want, (
            f"{_name(page)}: the output of {example.source.strip()!r} runs into a closing fence; "
            "leave a blank line before the ```"
        )


def test_the_pages_have_examples() -> None:
    """A sanity check on the test itself: the examples are found."""
    parser = doctest.DocTestParser()
    for page in ("README.md", "docs/tutorial.md", "docs/cookbook.md", "docs/how-it-works.md"):
        assert len(parser.get_examples((ROOT / page).read_text())) >= 3, page


# --------------------------------------------------------------------------- command lines


def _console_examples() -> list[tuple[str, Path, str, str]]:
    found = []
    for page in PAGES:
        cwd = ROOT if page.parent == ROOT else DOCS / "examples"
        for body in _blocks(page, "console"):
            command: str | None = None
            output: list[str] = []
            for line in [*body.splitlines(), "$ "]:
                if line.startswith("$ "):
                    if command is not None and command.startswith("drawdsl "):
                        found.append((_name(page), cwd, command, "\n".join(output)))
                    command, output = line[2:].strip(), []
                else:
                    output.append(line)
    return found


CONSOLE = _console_examples()


def _tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


def run_command(command: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Run ``drawdsl ...`` in this process; the exit code and stdout+stderr."""
    monkeypatch.chdir(cwd)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        try:
            code = main(shlex.split(command)[1:])
        except SystemExit as stop:  # argparse: --help, usage errors
            code = int(stop.code or 0)
    return code, buffer.getvalue()


@pytest.mark.parametrize(
    ("page", "cwd", "command", "want"), CONSOLE, ids=[f"{p}: {c}" for p, _, c, _ in CONSOLE]
)
def test_console_example(
    page: str, cwd: Path, command: str, want: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, got = run_command(command, cwd, monkeypatch)
    # Exact but for trailing spaces (columns must line up as shown); "..." may elide.
    want, got = (_tidy(text) for text in (want, got))
    assert doctest.OutputChecker().check_output(want, got, doctest.ELLIPSIS), (
        f"{page}: `{command}` printed\n{got}\ninstead of\n{want}"
    )
    assert (code != 0) == want.lstrip().startswith("drawdsl: error"), f"{page}: `{command}` exit code {code}"


def test_console_examples_are_found() -> None:
    commands = [command for _, _, command, _ in CONSOLE]
    assert any(c.startswith("drawdsl chance ") for c in commands)
    assert any(c.startswith("drawdsl sample ") for c in commands)


def test_included_files_exist() -> None:
    for page in PAGES:
        for path in re.findall(r'--8<-- "([^"]+)"', page.read_text()):
            assert (ROOT / path).is_file(), f"{_name(page)} includes a missing file {path}"


# --------------------------------------------------------------------------- the public API is documented


def test_every_public_name_is_in_the_embedding_guide() -> None:
    import drawdsl

    guide = (DOCS / "embedding.md").read_text()
    missing = [name for name in drawdsl.__all__ if f"`{name}`" not in guide]
    assert not missing, f"docs/embedding.md does not mention {missing}; add them to its API table"


# --------------------------------------------------------------------------- notebooks and plots


def test_plot_draws_one_bar_per_outcome_and_failure() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from drawdsl import Cards, chances, draw
    from drawdsl.plot import plot

    ax = plot(chances(draw().where(lambda c: c != "c"), Cards("aabc")), title="t")
    heights = [patch.get_height() for patch in ax.patches]
    assert heights == [0.5, 0.25, 0.25]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "(fails)"]
    assert ax.get_title() == "t" and ax.get_ylabel() == "probability"


def test_plot_without_matplotlib_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from drawdsl import Cards, chances, draw
    from drawdsl.plot import plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "drawdsl\[plot\]"'):
        plot(chances(draw(), Cards("ab")))


def test_plot_refuses_other_values() -> None:
    from drawdsl.plot import bars

    with pytest.raises(TypeError, match="expected a Distribution"):
        bars({"a": 1})  # type: ignore[arg-type]


def test_example_notebook_runs() -> None:
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    notebook = nbformat.read(DOCS / "examples.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, resources={"metadata": {"path": str(DOCS)}}).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    html = [out["data"]["text/html"] for out in outputs if "text/html" in out.get("data", {})]
    assert any("<table>" in h and "1/221" in h and "16/17" in h for h in html), "no Distribution table"
    assert any("image/png" in out.get("data", {}) for out in outputs), "no plot came out"
