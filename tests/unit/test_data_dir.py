"""The embedded data folder: where it is, and what is refused before any server starts."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from service import db as dbmod
from service.db import EMBEDDED_PG_MAJOR, DataDirError, bundled_majors, embedded_server, resolve_data_dir
from web.cli import main as cli


def fake_cluster(folder: Path, major: int | str) -> Path:
    (folder / "pg").mkdir(parents=True)
    (folder / "pg" / "PG_VERSION").write_text(f"{major}\n")
    return folder


def test_the_default_is_the_users_data_folder_and_can_be_moved(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.delenv("NEMESIS_DATA_DIR", raising=False)
    assert dbmod.DEFAULT_DATA_DIR == platformdirs.user_data_path("nemesis-archive", appauthor=False)
    assert ".data" not in dbmod.DEFAULT_DATA_DIR.parts
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))  # Linux: where it would be for this user
    assert platformdirs.user_data_path("nemesis-archive", appauthor=False) == tmp_path / "share" / "nemesis-archive"
    assert resolve_data_dir() == (dbmod.DEFAULT_DATA_DIR, False)
    monkeypatch.setenv("NEMESIS_DATA_DIR", str(tmp_path / "club"))
    assert resolve_data_dir() == (tmp_path / "club", True)
    assert resolve_data_dir(tmp_path / "other") == (tmp_path / "other", True)


def test_the_tests_never_use_the_users_data_folder():
    folder, explicit = resolve_data_dir()
    assert explicit and folder != dbmod.DEFAULT_DATA_DIR.resolve()


def test_the_pinned_major_is_shipped_by_the_installed_wheel():
    assert EMBEDDED_PG_MAJOR in bundled_majors()


def test_a_data_folder_of_another_major_is_refused_with_the_way_over(tmp_path):
    folder = fake_cluster(tmp_path / "club", 16)
    with pytest.raises(DataDirError) as e:
        with embedded_server(folder):
            pass
    text = str(e.value)
    assert f"written by PostgreSQL 16, but this build's embedded server is PostgreSQL {EMBEDDED_PG_MAJOR}" in text
    assert f"nemesis-archive --data-dir {folder} backup before-pg{EMBEDDED_PG_MAJOR}.tar" in text
    assert "which this build still ships" in text  # 0.6 ships 16 beside 18: backup reads it as it is
    assert f"mv {folder} {folder}-pg16" in text and f"--data-dir {folder} restore before-pg{EMBEDDED_PG_MAJOR}.tar" in text
    assert sorted(p.name for p in (folder / "pg").iterdir()) == ["PG_VERSION"]  # nothing started, nothing written

    gone = fake_cluster(tmp_path / "older", 12)  # a major the wheel no longer ships: the old version backs it up
    with pytest.raises(DataDirError, match="with the nemesis-archive version that wrote it"):
        with embedded_server(gone):
            pass


def test_the_command_refuses_it_too(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    folder = fake_cluster(tmp_path / "club", 16)
    for args in (["migrate"], ["serve"], ["demo"]):
        result = CliRunner().invoke(cli, ["--data-dir", str(folder), *args])
        assert result.exit_code == 1, (args, result.output)
        assert "written by PostgreSQL 16" in result.output, args


def test_club_data_left_in_the_checkout_is_never_silently_ignored(monkeypatch, tmp_path):
    legacy = fake_cluster(tmp_path / "checkout" / ".data", EMBEDDED_PG_MAJOR)
    new = tmp_path / "share" / "nemesis-archive"
    monkeypatch.setattr(dbmod, "LEGACY_DATA_DIR", legacy)
    monkeypatch.setattr(dbmod, "DEFAULT_DATA_DIR", new)
    monkeypatch.delenv("NEMESIS_DATA_DIR", raising=False)
    with pytest.raises(DataDirError) as e:
        with embedded_server():
            pass
    text = str(e.value)
    assert f"mkdir -p {new} && mv {legacy / 'pg'} {new / 'pg'}" in text
    assert f"--data-dir {legacy}" in text and "Nothing was started" in text
    assert not new.exists()
    dbmod.check_data_dir(tmp_path / "chosen", explicit=True)  # an explicit choice is the user's: no complaint


def test_a_data_folder_and_a_database_url_together_are_refused(tmp_path):
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "--database-url", "postgresql:///x", "restore", __file__])
    assert result.exit_code == 1 and "unset one of them" in result.output
