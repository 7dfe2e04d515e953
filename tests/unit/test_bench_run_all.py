"""bench/run_all.py --only: only the named sections of docs/benchmarks.md change."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import run_all  # noqa: E402

DOC = """# Benchmarks

Run 2026-11-26 00:52 UTC:

```sh
old command
```

## 1. First

keep me
exactly  

## 5. Rendering a replay step on the server

old figures

## 2. Second

also kept

""" + run_all.NOTES_HEADING + """

notes stay
"""


def test_only_replaces_the_named_section_and_keeps_the_rest_byte_for_byte():
    new = "## 5. Rendering a replay step on the server\n\nnew figures\n"
    out = run_all.replace_sections(DOC, {"5. Rendering a replay step on the server": new}, "```sh\nnew command\n```\n")
    assert "old figures" not in out and "new figures" in out
    assert "```sh\nnew command\n```\n" in out and "old command" not in out
    assert out.replace("new figures", "old figures").replace("new command", "old command") == DOC


def test_a_section_not_yet_in_the_file_goes_before_the_notes():
    new = "## 6. A step in the browser\n\nbrowser figures\n"
    out = run_all.replace_sections(DOC, {"6. A step in the browser": new}, "```sh\nold command\n```\n")
    assert out.index("browser figures") < out.index(run_all.NOTES_HEADING)
    assert out.index("also kept") < out.index("browser figures")
    assert out.replace(new + "\n", "") == DOC


def test_only_refuses_an_unknown_benchmark(capsys, tmp_path):
    import pytest

    (tmp_path / "b.md").write_text(DOC)
    with pytest.raises(SystemExit):
        run_all.main(["--only", "replay_render,nope", "--output", str(tmp_path / "b.md")])
    assert "no benchmark nope" in capsys.readouterr().err
    assert (tmp_path / "b.md").read_text() == DOC
