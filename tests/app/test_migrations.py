"""The migrations build exactly the schema the models describe, and take it down again.

After every step of an upgrade, a step-by-step downgrade and a second upgrade, the
live schema is compared with the models' metadata by Alembic's own autogenerate
comparison (``compare_metadata``): at head it must find nothing to change; at base
no table of the app may be left. The walk follows whatever the head revision is,
on SQLite and on PostgreSQL. The drift tests show the comparison notices a
difference from either side: a column the database has and the models lack, and
one the models have and the database lacks.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Connection, Integer, MetaData, inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

import app
from app.core.migrate import alembic_config, downgrade, upgrade
from app.play.tables import Base


def _every_model() -> MetaData:
    """``Base.metadata`` once every app module is imported: model modules beside
    app/play/tables.py (the alert tables, say) add their tables to it when imported."""
    for module in pkgutil.iter_modules(app.__path__):
        if module.name != "__main__":
            importlib.import_module(f"app.{module.name}")
    return Base.metadata


MODELS = _every_model()
APP_TABLES = set(MODELS.tables)


def _on_database(url: str, work: Any) -> Any:
    async def run() -> Any:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as connection:
                return await connection.run_sync(work)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def schema_drift(url: str, metadata: MetaData = MODELS) -> list[Any]:
    """What autogenerate would write to bring the database in line with ``metadata``."""

    def compare(connection: Connection) -> list[Any]:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": False}
        )
        return list(compare_metadata(context, metadata))

    result: list[Any] = _on_database(url, compare)
    return result


def _tables(url: str) -> set[str]:
    result: set[str] = _on_database(url, lambda c: set(inspect(c).get_table_names()))
    return result


def assert_schema_is_the_models(url: str, step: str) -> None:
    drift = schema_drift(url)
    assert drift == [], f"after {step} the schema differs from the models: {drift}"
    assert _tables(url) - {"alembic_version"} == APP_TABLES


def _revisions_base_to_head(url: str) -> list[str]:
    script = ScriptDirectory.from_config(alembic_config(url))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def test_migrations_go_down_and_up_again_to_the_models_schema(empty_database_url: str) -> None:
    url = empty_database_url
    revisions = _revisions_base_to_head(url)
    assert revisions, "no migrations found"

    upgrade(url)
    assert_schema_is_the_models(url, "upgrade to head")

    for revision in reversed(revisions):
        downgrade(url, "-1")
        assert revision not in _current_revisions(url), f"downgrade did not leave {revision}"
    left = _tables(url) & APP_TABLES
    assert not left, f"after downgrade to base these tables are left: {sorted(left)}"
    drift = schema_drift(url)
    assert {diff[1].name for diff in drift if diff[0] == "add_table"} == APP_TABLES
    assert {diff[0] for diff in drift} <= {"add_table", "add_index"}, drift

    upgrade(url)
    assert_schema_is_the_models(url, "downgrade to base and upgrade to head again")


def _current_revisions(url: str) -> set[str]:
    def current(connection: Connection) -> set[str]:
        return set(MigrationContext.configure(connection).get_current_heads())

    result: set[str] = _on_database(url, current)
    return result


def _copy_of_models() -> MetaData:
    copy = MetaData()
    for table in MODELS.tables.values():
        table.to_metadata(copy)
    return copy


def test_a_column_the_models_lack_is_drift(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade(url)
    _on_database(url, lambda c: c.execute(text("ALTER TABLE rooms ADD COLUMN drifted INTEGER")))

    drift = schema_drift(url)
    assert [(d[0], d[2], d[3].name) for d in drift] == [("remove_column", "rooms", "drifted")]
    with pytest.raises(AssertionError, match="differs from the models"):
        assert_schema_is_the_models(url, "adding a column by hand")


def test_a_column_the_migrations_lack_is_drift(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade(url)
    models = _copy_of_models()
    models.tables["seats"].append_column(Column("drifted", Integer, nullable=True))

    drift = schema_drift(url, models)
    assert [(d[0], d[2], d[3].name) for d in drift] == [("add_column", "seats", "drifted")]
    assert schema_drift(url) == []


def test_a_changed_column_type_is_drift(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade(url)
    models = _copy_of_models()
    models.tables["rooms"].c.players.type = models.tables["rooms"].c.game.type

    drift = schema_drift(url, models)
    assert len(drift) == 1 and drift[0][0][0] == "modify_type", drift
    assert drift[0][0][2:4] == ("rooms", "players")
