"""The server's one error tree (``paigow_server.errors``): every exception class the server defines is a
``ServerError``, no two share a name, and the one mapping answers each on the wire and over HTTP as
docs/protocol.md and docs/http-api.md say."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import paigow_server
from paigow.protocol.codes import ErrorCode
from paigow.table.rejections import RejectCode, Rejection
from paigow_server.errors import ApiError, ServerError, http_error, wire_error
from paigow_server.process.fair_queue import QueueBusy
from paigow_server.realtime import tables as service_errors
from paigow_server.realtime.router import RouteTimeoutError
from paigow_server.realtime.table_feed import TableGoneError
from paigow_server.store.accounts import InsufficientBalanceError, UnknownPlayerError
from paigow_server.store.codec import CodecError
from paigow_server.store.money import SnapshotError
from paigow_server.web.api import api_error_response
from paigow_server.web.chat import ChatRefused
from paigow_server.web.operator_auth import OperatorAuthError

CONTROL_FLOW = {"paigow_server.web.ws._Closed"}
"""Exceptions that are no error: they unwind a loop."""


def _server_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(paigow_server.__path__, "paigow_server."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == info.name:
                found[f"{info.name}.{cls.__qualname__}"] = cls
    return found


EXCEPTIONS = _server_exceptions()


def test_every_server_error_is_a_server_error() -> None:
    assert len(EXCEPTIONS) > 30
    outside = sorted(name for name, cls in EXCEPTIONS.items()
                     if not issubclass(cls, ServerError) and name not in CONTROL_FLOW)
    assert outside == []


def test_no_two_server_errors_share_a_name() -> None:
    """The router sends an error to another process by its class name: one name, one class."""
    names = [cls.__name__ for cls in EXCEPTIONS.values()]
    assert sorted({n for n in names if names.count(n) > 1}) == []
    assert service_errors.InsufficientBalanceError is InsufficientBalanceError


def test_each_error_told_on_the_wire_has_a_wire_code() -> None:
    for cls in EXCEPTIONS.values():
        if issubclass(cls, service_errors.ServiceError | TableGoneError | InsufficientBalanceError):
            assert cls.code in set(ErrorCode), cls


@pytest.mark.parametrize(("error", "wire", "http"), [
    (Rejection(RejectCode.NOT_SEATED, "no seat"), (RejectCode.NOT_SEATED, "no seat"), (409, "NOT_SEATED")),
    (service_errors.TableNotFoundError("no table 'x'"), (ErrorCode.TABLE_NOT_FOUND, "no table 'x'"),
     (404, "TABLE_NOT_FOUND")),
    (InsufficientBalanceError("over"), (ErrorCode.INSUFFICIENT_BALANCE, "over"),
     (409, "INSUFFICIENT_BALANCE")),
    (service_errors.TableBusyError("busy"), (ErrorCode.BUSY, "busy"), (503, "BUSY")),
    (RouteTimeoutError("late"), (ErrorCode.BUSY, "late"), (503, "BUSY")),
    (service_errors.UnconfirmedError("maybe"), (ErrorCode.UNCONFIRMED, "maybe"), (503, "UNCONFIRMED")),
    (OperatorAuthError("OPERATOR_DISABLED", "disabled"), (ErrorCode.UNAUTHORIZED, "disabled"),
     (401, "OPERATOR_DISABLED")),
    (ChatRefused(ErrorCode.CHAT_MUTED, "muted"), (ErrorCode.CHAT_MUTED, "muted"), (400, "CHAT_MUTED")),
    (UnknownPlayerError("no player"), (ErrorCode.INTERNAL_ERROR, "no player"), (404, "PLAYER_NOT_FOUND")),
    (SnapshotError("moved"), (ErrorCode.INTERNAL_ERROR, "moved"), (503, "UNAVAILABLE")),
    (QueueBusy("full"), (ErrorCode.INTERNAL_ERROR, "full"), (503, "ANALYSIS_BUSY")),
])
def test_the_one_mapping(error: ServerError | Rejection, wire: tuple[str, str],
                         http: tuple[int, str]) -> None:
    assert wire_error(error) == wire
    answer = http_error(error)
    assert answer is not None
    assert (answer.http_status, answer.code, answer.message) == (*http, wire[1])


def test_a_failure_of_the_servers_own_is_never_told() -> None:
    broken = CodecError("not a valid commit")
    assert wire_error(broken) is None
    assert http_error(broken) is None


def test_an_api_error_is_its_own_answer() -> None:
    error = ApiError(429, "RATE_LIMITED", "slow down", headers={"Retry-After": "3"})
    assert http_error(error) is error
    assert str(error) == "RATE_LIMITED: slow down"
    assert error.headers == {"Retry-After": "3"}


async def test_the_api_answers_a_server_error_that_reaches_it_and_leaves_a_failure_a_plain_500() -> None:
    async def unknown(request: Request) -> Response:
        raise UnknownPlayerError("no player 'p9'")

    async def disabled(request: Request) -> Response:
        raise OperatorAuthError("OPERATOR_DISABLED", "the operator 'ann' is disabled")

    async def broken(request: Request) -> Response:
        raise CodecError("not a valid commit")

    routes = [Route("/unknown", unknown), Route("/disabled", disabled), Route("/broken", broken)]
    app = Starlette(routes=routes, exception_handlers={ServerError: api_error_response})
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        missing = await client.get("/unknown")
        refused = await client.get("/disabled")
        failed = await client.get("/broken")
    assert (missing.status_code, missing.json()) == (404, {"error": "PLAYER_NOT_FOUND",
                                                           "message": "no player 'p9'"})
    assert refused.status_code == 401
    assert refused.json()["error"] == "OPERATOR_DISABLED"
    assert refused.headers["WWW-Authenticate"] == "Bearer"
    assert failed.status_code == 500
    assert "not a valid commit" not in failed.text


def test_a_rejection_s_amounts_go_with_it_over_http() -> None:
    """A table's refusal answered over HTTP (409) carries the amounts it names, for the page to word it."""
    answer = http_error(Rejection(RejectCode.BELOW_MINIMUM, "your bet is $4.99; the table minimum is $5.00",
                                  amount_cents=499, limit_cents=500))
    assert answer is not None
    assert (answer.http_status, answer.code, answer.extra) == (409, "BELOW_MINIMUM",
                                                              {"amount_cents": 499, "limit_cents": 500})
    plain = http_error(Rejection(RejectCode.NO_ROUND, "no round is in progress"))
    assert plain is not None
    assert plain.extra == {}


def test_a_field_helper_names_the_field_it_refuses() -> None:
    """The page says which field was wrong from ``field``, not from the English message."""
    from paigow_server.web.api import int_field, only_fields, str_field

    with pytest.raises(ApiError) as text:
        str_field({"name": 5}, "name")
    with pytest.raises(ApiError) as whole:
        int_field({"seats": "6"}, "seats")
    with pytest.raises(ApiError) as unknown:
        only_fields({"name": "T", "colour": "red"}, {"name"})
    assert [e.value.extra for e in (text, whole, unknown)] == [{"field": "name"}, {"field": "seats"},
                                                               {"field": "colour"}]
