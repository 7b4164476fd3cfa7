"""The gate in front of the app, as Jupyter's server has one: a request is turned away, in
the API's `{"error": ...}` form, when its Host is not ours (400), it calls the API from another
site's page (403: an `<img>` or a form elsewhere would make the browser ask), it lacks the
token a remote server requires (401), or its body is not JSON (415) or over MAX_BODY bytes
(413, before it is read in full)."""

from __future__ import annotations

import hmac

from starlette.datastructures import Headers, QueryParams
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .hosts import AllowedHosts

MAX_BODY = 64 * 1024
BODY_METHODS = ("POST", "PUT", "PATCH")  # these take a JSON body
OWN_SITE = ("same-origin", "none")  # Sec-Fetch-Site of the page's own calls, or typed in


class Refused(Exception):
    """A request turned away, with its status and one-line reason."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Guard:
    """ASGI middleware: checks the Host, the token (when one is given), and bodies' type and
    size, before the app sees the request."""

    def __init__(self, app: ASGIApp, hosts: AllowedHosts, token: str | None = None,
                 max_body: int = MAX_BODY):
        self.app, self.hosts, self.token, self.max_body = app, hosts, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            self._check(scope, headers)
            if scope["method"] in BODY_METHODS:
                receive = await self._buffered(receive)
        except Refused as refusal:
            await _refuse(refusal, scope, receive, send)
            return
        if receive is not None:  # None: the client left while sending
            await self.app(scope, receive, send)

    def _check(self, scope: Scope, headers: Headers) -> None:
        host = headers.get("host", "")
        server = scope.get("server")
        if not self.hosts.allows(host, server[0] if server else None):
            raise Refused(400, f"this server does not answer to the host {host[:100]!r}")
        path = scope["path"]
        public = path == "/" or path.startswith("/static/")  # the page and its files
        if not public and _from_another_site(headers, host):
            raise Refused(403, "this server answers only its own page: a call from another "
                               "site is refused")
        if self.token is not None and not public and not self._has_token(scope, headers):
            raise Refused(401, "this server needs its token: ?token=... or "
                               "'Authorization: Bearer ...' (printed by serve at start)")
        if scope["method"] in BODY_METHODS:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                raise Refused(415, "the body must be content-type application/json, not "
                                   f"{kind[:100] or 'none'}")
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            raise Refused(413, f"the body is over {self.max_body:,} bytes")

    def _has_token(self, scope: Scope, headers: Headers) -> bool:
        scheme, _, bearer = headers.get("authorization", "").partition(" ")
        given = [QueryParams(scope["query_string"]).get("token", "")]
        if scheme.lower() == "bearer":
            given.append(bearer.strip())
        expected = self.token.encode()
        return any(hmac.compare_digest(g.encode("utf-8", "replace"), expected) for g in given)

    async def _buffered(self, receive: Receive) -> Receive | None:
        """The whole body read (Refused once it passes max_body, length given or not), and a
        receive that hands it to the app; None if the client disconnects."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_body:
                raise Refused(413, f"the body is over {self.max_body:,} bytes")
            if not message.get("more_body", False):
                break
        return _replay(b"".join(chunks), receive)


def _from_another_site(headers: Headers, host: str) -> bool:
    """Whether the browser says the request comes from another site's page: Sec-Fetch-Site
    other than same-origin or none, or an Origin whose host is not this Host."""
    site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    return (site is not None and site.lower() not in OWN_SITE) or (
        origin is not None and origin.partition("://")[2].lower() != host.strip().lower())


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    return replay


async def _refuse(refusal: Refused, scope: Scope, receive: Receive, send: Send) -> None:
    headers = {"WWW-Authenticate": "Bearer"} if refusal.status == 401 else None
    response = JSONResponse({"error": str(refusal)}, status_code=refusal.status,
                            headers=headers)
    await response(scope, receive, send)
