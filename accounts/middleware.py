"""A random device id per browser, so sign-in lockouts can tell one tablet from another
(accounts/throttle.py). It identifies a device, not a person, and holds nothing else."""

from django.conf import settings

from .throttle import DEVICE_COOKIE, new_device_id

ONE_YEAR = 365 * 24 * 3600


class DeviceCookieMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        known = request.COOKIES.get(DEVICE_COOKIE, "")
        request.device_id = known if len(known) == 24 and known.isalnum() else new_device_id()
        response = self.get_response(request)
        if request.device_id != known:
            response.set_cookie(DEVICE_COOKIE, request.device_id, max_age=ONE_YEAR, httponly=True,
                                samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response
