"""Placeholder: replaced by the arena UI work."""
from django.http import Http404


def arena_new(request, *args, **kwargs):
    raise Http404


def control(request, *args, **kwargs):
    raise Http404


def control_live(request, *args, **kwargs):
    raise Http404


def screen(request, *args, **kwargs):
    raise Http404


def start(request, *args, **kwargs):
    raise Http404


def pause(request, *args, **kwargs):
    raise Http404


def resume(request, *args, **kwargs):
    raise Http404


def end(request, *args, **kwargs):
    raise Http404


def let_in(request, *args, **kwargs):
    raise Http404


def take_out(request, *args, **kwargs):
    raise Http404


def let_back(request, *args, **kwargs):
    raise Http404


def standings_csv(request, *args, **kwargs):
    raise Http404
