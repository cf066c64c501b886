"""Answers for errors no view handles itself.

A database that is stopped or not answering gets a "try again" (503) within the connection and
statement timeouts, instead of a hang or a generic error page; every request connects afresh, so
the site recovers by itself when the database is back.
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.utils.deprecation import MiddlewareMixin

UNREACHABLE = (OperationalError, InterfaceError)


def try_again() -> HttpResponse:
    # Not the base template: it would ask the database who the user is.
    response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = "5"
    return response


class DatabaseUnreachableMiddleware(MiddlewareMixin):
    """A view that could not reach the database answers "try again" (sync and async views)."""

    def process_exception(self, request: HttpRequest, exception: Exception):
        return try_again() if isinstance(exception, UNREACHABLE) else None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the same answer when a middleware, not a view, lost the database."""
    if isinstance(sys.exception(), UNREACHABLE):
        return try_again()
    return HttpResponseServerError(loader.render_to_string("500.html"))
