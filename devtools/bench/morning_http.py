"""A browser's HTTP side for the morning bench: one keep-alive connection, a cookie jar,
redirects followed, forms read from the page and sent back as the browser sends them.

On asyncio with h11 (pinned in requirements.txt), so a thousand browsers share one client
process. No Django here: the client process holds Autobahn for asyncio (wsclient.py).
"""

from __future__ import annotations

import asyncio
import html
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

import h11

TIMEOUT = 60.0  # seconds for one request: a page that takes longer counts as failed


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str
    path: str  # where the browser ended up, after redirects

    @property
    def try_again(self) -> bool:
        """The try-again page (config/unavailable.py): 503 with Retry-After."""
        return self.status == 503


class Browser:
    def __init__(self, *, port: int, host: str = "127.0.0.1"):
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self._reader = self._writer = None
        self._conn: h11.Connection | None = None

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def get(self, path: str, *, headers: dict | None = None, follow: bool = True) -> Response:
        return await self.request("GET", path, headers=headers, follow=follow)

    async def post(self, path: str, fields: list[tuple[str, str]], *, follow: bool = True) -> Response:
        return await self.request("POST", path, fields=fields, follow=follow)

    async def submit(self, page: Response, form: "Form", **values) -> Response:
        """Send `form` of `page` as the browser does: its fields with `values` filled in."""
        return await self.post(form.action or page.path, form.fields(**values))

    async def request(self, method: str, path: str, *, fields=None, headers=None,
                      follow: bool = True) -> Response:
        for _ in range(10):
            response = await asyncio.wait_for(self._once(method, path, fields, headers or {}), TIMEOUT)
            location = response.headers.get("location")
            if not follow or response.status not in (301, 302, 303, 307, 308) or not location:
                return response
            path = urlsplit(location).path + (f"?{urlsplit(location).query}" if urlsplit(location).query else "")
            method, fields = "GET", None
        return response

    async def _once(self, method, path, fields, extra) -> Response:
        body = urlencode(fields).encode() if fields is not None else b""
        headers = [("Host", f"{self.host}:{self.port}"), ("User-Agent", "numberdeck-morning-bench"),
                   ("Accept", "text/html"), ("Accept-Language", "en")]
        if self.cookies:
            headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        if method == "POST":
            headers += [("Origin", self.origin), ("Referer", self.origin + path),
                        ("Content-Type", "application/x-www-form-urlencoded"),
                        ("Content-Length", str(len(body)))]
        headers += list(extra.items())
        for attempt in range(2):  # a kept-alive connection the server closed: open a new one
            fresh = self._conn is None
            try:
                if fresh:
                    await self._connect()
                return await self._exchange(method, path, headers, body)
            except (ConnectionError, h11.RemoteProtocolError, asyncio.IncompleteReadError, OSError):
                self._close()
                if fresh or attempt:
                    raise
        raise ConnectionError("unreachable")

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        self._conn = h11.Connection(h11.CLIENT)

    def _close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = self._conn = None

    async def close(self) -> None:
        self._close()

    async def _exchange(self, method, path, headers, body) -> Response:
        conn = self._conn
        data = conn.send(h11.Request(method=method, target=path, headers=headers))
        if body:
            data += conn.send(h11.Data(data=body))
        data += conn.send(h11.EndOfMessage())
        self._writer.write(data)
        await self._writer.drain()
        status, got, chunks = 0, {}, []
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                received = await self._reader.read(65536)
                if not received and conn.their_state is h11.SEND_BODY and "content-length" not in got:
                    conn.receive_data(b"")
                    continue
                if not received:
                    raise ConnectionError("closed by the server")
                conn.receive_data(received)
            elif isinstance(event, h11.Response):
                status = event.status_code
                for name, value in event.headers:
                    name, value = name.decode().lower(), value.decode("latin-1")
                    if name == "set-cookie":
                        self._keep_cookie(value)
                    got[name] = value
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                break
        if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
            conn.start_next_cycle()
        else:
            self._close()
        return Response(status, got, b"".join(chunks).decode("utf-8", "replace"), path)

    def _keep_cookie(self, header: str) -> None:
        pair, *attributes = header.split(";")
        name, _, value = pair.strip().partition("=")
        gone = value in ("", '""') or any(a.strip().lower() == "max-age=0" for a in attributes)
        if gone:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value


# ----- what the page holds ---------------------------------------------------------------------
@dataclass
class Form:
    action: str
    method: str
    attrs: dict
    inputs: list[dict] = field(default_factory=list)  # every input/select/button, in page order

    def fields(self, **values) -> list[tuple[str, str]]:
        """What the browser sends: hidden and text fields as they are, checked boxes and radios,
        each select's chosen option; a name in `values` is sent with that value (a list for a
        repeated field) instead. Buttons are not sent (the bench's forms never read them)."""
        sent: list[tuple[str, str]] = []
        for name, value in values.items():
            for v in value if isinstance(value, list) else [value]:
                sent.append((name, str(v)))
        for item in self.inputs:
            name = item.get("name")
            if not name or name in values or item["tag"] == "button":
                continue
            kind = item.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in item:
                continue
            if kind in ("submit", "button", "image", "file"):
                continue
            sent.append((name, item.get("value", "on" if kind in ("checkbox", "radio") else "")))
        return sent

    def value(self, name: str) -> str | None:
        for item in self.inputs:
            if item.get("name") == name:
                return item.get("value")
        return None


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get").lower(), a)
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag in ("input", "button", "textarea"):
            self._form.inputs.append({"tag": tag, **a})
        elif tag == "select":
            self._select = {"tag": "select", "name": a.get("name"), "type": "select"}
            self._form.inputs.append(self._select)
        elif tag == "option" and self._select is not None:
            if "value" not in self._select or "selected" in a:
                self._select["value"] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


def form_with(page: str, *, field_name: str | None = None, action: str | None = None) -> Form | None:
    """The page's first POST form with a field of that name (or that action)."""
    for form in forms(page):
        if form.method != "post":
            continue
        if action is not None and form.action == action:
            return form
        if field_name is not None and any(i.get("name") == field_name for i in form.inputs):
            return form
    return None


def unescape(text: str) -> str:
    return html.unescape(text)
