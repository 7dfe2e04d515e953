"""schemathesis against the served OpenAPI document and the real app over PostgreSQL.

A short, seeded run (derandomized hypothesis): every operation, valid and invalid requests;
no 5xx, every status and body as the document declares.
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from service.context import Archive
from tests.helpers import generated, token_for
from web.openapi import spec

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
    unsupported_method,
]
EXAMPLES = 10  # per operation and mode: 9 operations x 2 modes = at most 180 requests (plus shrinking on a failure)
OPERATIONS = [(method.upper(), path) for path, ops in spec()["paths"].items() for method in ops]


@pytest.fixture(scope="module")
def api(database):
    """The app over a real database, its served document loaded by schemathesis, and one real game."""
    from web import create_app

    archive = Archive(database)
    header, facts = generated(seed=95, players=2)
    game = archive.games.create_game(header)
    archive.games.record(game.id, facts[:12], command_id="conformance")
    token = token_for(archive.accounts)  # writes need an account (decision 0024)
    yield schemathesis.openapi.from_wsgi("/api/openapi.json", create_app({"ARCHIVE": archive})), str(game.id), token
    archive.close()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_the_api_keeps_to_its_openapi_document(api, method, path, mode):
    schema, game_id, token = api
    operation = schema[path][method]
    strategies = [operation.as_strategy(mode)]
    if "{game_id}" in path:  # and against a real game, to get past the 404
        strategies.append(operation.as_strategy(mode, path_parameters={"game_id": game_id}))

    @given(case=st.one_of(strategies))
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case):
        case.call_and_validate(checks=CHECKS, headers={"Authorization": f"Bearer {token}"})

    run()


def test_every_operation_declares_its_body_and_errors():
    doc = spec()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            responses = op["responses"]
            ok = next(code for code in responses if code.startswith("2"))
            assert next(iter(responses[ok]["content"].values()))["schema"], (method, path)
            for code in ("400", "405", "503") + (("413",) if method == "post" else ()):
                assert responses[code]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    facts = doc["paths"]["/api/games/{game_id}/facts"]["post"]["responses"]
    assert {"200", "201", "400", "401", "403", "404", "405", "409", "413", "422", "503"} <= set(facts)
    assert facts["401"]["headers"]["WWW-Authenticate"]
    for path, method in (("/api/games", "post"), ("/api/games/{game_id}/facts", "post")):
        assert {"token": []} in doc["paths"][path][method]["security"]
    assert doc["components"]["securitySchemes"]["token"] == {**doc["components"]["securitySchemes"]["token"],
                                                              "type": "http", "scheme": "bearer"}
    assert facts["405"]["headers"]["Allow"] and facts["503"]["headers"]["Retry-After"]
    assert {"error", "message"} <= set(doc["components"]["schemas"]["Error"]["required"])
