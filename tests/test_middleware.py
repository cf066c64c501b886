"""The middleware chain runs on the event loop from the server to the view.

One sync-only middleware makes Django run the chain above it in a thread and hop back to the
event loop for the chain below it. A phone that disconnects mid-request then cancels the thread
while it waits on the loop, and the request's end ("request finished") fails with "Current
ThreadExecutor already quit" in the server's log (seen in CI with eight phones tapping at once).
"""

from django.conf import settings
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.utils.module_loading import import_string


def test_every_middleware_can_run_on_the_event_loop():
    for path in settings.MIDDLEWARE:
        assert getattr(import_string(path), "async_capable", False), path


def test_the_asgi_handler_adapts_no_middleware(monkeypatch):
    adapted: list[str] = []
    adapt = base.BaseHandler.adapt_method_mode

    def spy(self, is_async, method, method_is_async=None, debug=False, name=None):
        if name and name.startswith("middleware") and method_is_async is not is_async:
            adapted.append(name)
        return adapt(self, is_async, method, method_is_async, debug, name)

    monkeypatch.setattr(base.BaseHandler, "adapt_method_mode", spy)
    ASGIHandler()
    assert adapted == []
