"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets are session-authenticated (AuthMiddlewareStack) and origin-checked: scheme, host
and port must be the site's own (config/ws_security.py), so another site cannot open a socket
with a student's cookies. A socket that meets the database away (reading the session at the
handshake, or in its consumer) is closed with a close the page retries, never failed with a 500
(config/unavailable.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_asgi_app = get_asgi_application()  # set up Django before importing consumers

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.unavailable import SocketsCloseWhenDatabaseAway  # noqa: E402
from config.ws_security import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            SocketsCloseWhenDatabaseAway(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# The class arena's pairing rounds run in every web process (arena/ticker.py says why; the
# database lock makes any number of them safe). Off in the test settings.
from arena import ticker  # noqa: E402

ticker.start()
