"""Notation: export -> import -> export is byte-identical; bad files are refused whole, by line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from service.demo import HERE as DEMO_DIR
from service.notation import NotationError, import_parsed, parse, write_game
from tests.helpers import generated
from web.cli import main as cli


def count_events(db) -> int:
    with db.connect() as conn:
        return conn.execute("SELECT count(*) FROM games_events").fetchone()[0]


def test_export_import_export_is_byte_identical(archive, fresh_archive):
    header, facts = generated(seed=61)
    game = archive.games.create_game({**header, "title": "Zażółć gęślą jaźń", "tags": ["ü", "league"]})
    archive.games.record(game.id, facts[:10], command_id="batch-1", recorder="tablet A")
    archive.games.record(game.id, facts[10:], command_id="batch-2")
    archive.games.record(game.id, [{"type": "FactVoided", "data": {"seqs": [3], "reason": "wrong"}}])
    first = write_game(archive.games.get_game(game.id))

    imported, created = import_parsed(fresh_archive.games, parse(first, "first.jsonl"))
    assert created
    again = write_game(fresh_archive.games.get_game(imported.id))
    assert again.encode() == first.encode()
    # importing the same file again stores nothing
    before = count_events(fresh_archive.db)
    assert import_parsed(fresh_archive.games, parse(first, "first.jsonl"))[1] is False
    assert count_events(fresh_archive.db) == before


@pytest.mark.parametrize("path", sorted(DEMO_DIR.glob("*.jsonl")), ids=lambda p: p.name)
def test_demo_files_are_canonical(fresh_archive, path: Path):
    text = path.read_text(encoding="utf-8")
    game, _ = import_parsed(fresh_archive.games, parse(text, path.name))
    assert write_game(fresh_archive.games.get_game(game.id)) == text


def _lines(seed=62):
    header, facts = generated(seed=seed)
    from service.game import Game

    g = Game(game_id=__import__("uuid").uuid4(), ruleset="lockdown", mode=header["mode"], players=header["players"],
             strict=True, options=header["options"], league=None, tags=[], played_on=None, title=None)
    g.record(facts)
    return write_game(g).splitlines()


def _mutate(lines, index, fn):
    obj = json.loads(lines[index])
    fn(obj)
    out = list(lines)
    out[index] = json.dumps(obj)
    return "\n".join(out) + "\n"


BAD_FILES = {
    "empty": (lambda L: "", 1, "empty file"),
    "not json": (lambda L: "\n".join(L[:2] + ["{oops"] + L[3:]) + "\n", 3, "not valid JSON"),
    "not an object": (lambda L: "\n".join(L[:4] + ["[1, 2]"] + L[5:]) + "\n", 5, "JSON object"),
    "wrong format": (lambda L: _mutate(L, 0, lambda o: o.update(format="pgn")), 1, "format"),
    "future version": (lambda L: _mutate(L, 0, lambda o: o.update(version=99)), 1, "version"),
    "bad header field": (lambda L: _mutate(L, 0, lambda o: o.update(players=[])), 1, "players"),
    "gap in seq": (lambda L: _mutate(L, 6, lambda o: o.update(seq=9)), 7, "seq must be 6"),
    "bad time": (lambda L: _mutate(L, 5, lambda o: o.update(recorded_at="yesterday")), 6, "recorded_at"),
    "unknown key": (lambda L: _mutate(L, 4, lambda o: o.update(colour="red")), 5, "colour"),
    "unknown fact type": (lambda L: _mutate(L, 8, lambda o: o.update(type="Teleported")), 9, "Teleported"),
    "illegal in a strict game": (lambda L: _mutate(L, 2, lambda o: o.update(actor=None, type="SetupCompleted", data={"first_player": 1})), 3, "SetupCompleted"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_refused_with_file_line_and_reason_and_nothing_is_stored(fresh_archive, case):
    make, line, words = BAD_FILES[case]
    text = make(_lines())
    before = count_events(fresh_archive.db)
    with pytest.raises(NotationError) as err:
        import_parsed(fresh_archive.games, parse(text, "games/bad.jsonl"))
    assert err.value.details["line"] == line, err.value.message
    assert err.value.message.startswith(f"games/bad.jsonl:{line}: ")
    assert words.lower() in err.value.message.lower()
    assert count_events(fresh_archive.db) == before


def test_cli_import_and_export(fresh_archive, tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(_lines(63)) + "\n", encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_mutate(_lines(64), 3, lambda o: o.update(seq=1)), encoding="utf-8")
    url = fresh_archive.db.url
    runner = CliRunner()
    result = runner.invoke(cli, ["--database-url", url, "import", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:4: seq must be 3" in result.output
    assert "imported 1 of 2" in result.output
    game_id = json.loads(good.read_text().split("\n", 1)[0])["game"]
    out = tmp_path / "out.jsonl"
    result = runner.invoke(cli, ["--database-url", url, "export", game_id, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == good.read_bytes()
    result = runner.invoke(cli, ["--database-url", url, "export", "00000000-0000-4000-8000-000000000000"])
    assert result.exit_code == 1 and "no game" in result.output


def test_commands_refuse_an_unmigrated_server_and_say_what_to_run(pg_server):
    from service.db import drop_database, ensure_database

    db = ensure_database(pg_server, "nemesis_test_cli_unmigrated")
    try:
        result = CliRunner().invoke(cli, ["--database-url", db.url, "demo"])
        assert result.exit_code == 1
        assert "run `nemesis-archive migrate`" in result.output
        result = CliRunner().invoke(cli, ["--database-url", db.url, "migrate"])
        assert result.exit_code == 0, result.output
        result = CliRunner().invoke(cli, ["--database-url", db.url, "demo"])
        assert result.exit_code == 0 and "3 loaded" in result.output
    finally:
        drop_database(pg_server, db.name)


def _import_set(folder: Path) -> tuple[list[str], str]:
    """Files of each outcome, in an order that mixes them; returns (names, the first game's id)."""
    first, other = _lines(63), _lines(64)
    files = {
        "a.jsonl": "\n".join(first) + "\n",
        "b.jsonl": _mutate(_lines(65), 3, lambda o: o.update(seq=1)),  # refused when read
        "c.jsonl": _mutate(_lines(66), 2, lambda o: o.update(actor=None, type="SetupCompleted",
                                                             data={"first_player": 1})),  # refused when folded
        "d.jsonl": "\n".join(other) + "\n",
        "e.jsonl": "\n".join(first) + "\n",  # a's game again: skipped
        "f.jsonl": "\n".join([first[0]] + other[1:]) + "\n",  # a's game id with other facts: refused
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return list(files), json.loads(first[0])["game"]


@pytest.mark.parametrize("how", ["in this process", "forked workers", "workers from a fork server"])
def test_an_import_in_worker_processes_reports_and_stores_as_one_in_process(fresh_archive, tmp_path, how):
    """``import --workers N``: the games are folded in worker processes (forked from a process without threads,
    the CLI's; from a fork server when the importing process already runs threads, as this test process does),
    with the same messages in the same order, each game stored whole, its hash chain intact (decision 0050)."""
    import subprocess
    import sys

    names, first_id = _import_set(tmp_path)
    url = fresh_archive.db.url
    args = ["--database-url", url, "import", "--workers", "1" if how == "in this process" else "2", *names]
    if how == "forked workers":  # a process of its own, as the command runs
        run = subprocess.run([str(Path(sys.executable).parent / "nemesis-archive"), *args], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        code, output = run.returncode, run.stderr + run.stdout
    else:
        import os

        here = os.getcwd()
        os.chdir(tmp_path)
        try:
            result = CliRunner().invoke(cli, args)
        finally:
            os.chdir(here)
        code, output = result.exit_code, result.output
    said = [line for line in output.splitlines() if "rejected" in line or "skipped" in line or "imported" in line]
    assert said == [
        "rejected b.jsonl:4: seq must be 3 (facts are numbered 1, 2, 3 ... in order); nothing of it was stored",
        "rejected c.jsonl:3: SetupCompleted: Setup is not complete: seats 1, 2, 3 have not chosen a character.;"
        " nothing of it was stored",
        f"e.jsonl: game {first_id} is already in the archive; skipped",
        f"rejected f.jsonl:1: game {first_id} is already in the archive with other facts; nothing of it was stored",
        "imported 3 of 6 file(s)",
    ], output
    assert code == 1
    verified = CliRunner().invoke(cli, ["--database-url", url, "verify"])
    assert verified.exit_code == 0 and "verified 2 game(s)" in verified.output and "2 intact" in verified.output
    assert write_game(fresh_archive.games.get_game(first_id)) == (tmp_path / "a.jsonl").read_text(encoding="utf-8")


def test_a_bug_in_a_worker_names_the_file_it_was_folding(monkeypatch):
    import service.archive
    from service.archive import Games
    from service.notation import fold_parsed

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(service.archive, "folded_game", broken)
    games = Games(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    with pytest.raises(KeyError) as err:
        fold_parsed(parse("\n".join(_lines(63)) + "\n", "games/buggy.jsonl"), games)
    assert any("games/buggy.jsonl" in note for note in err.value.__notes__)
