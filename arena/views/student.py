"""Placeholder: replaced by the arena UI work."""
from django.http import Http404


def join_by_code(request, *args, **kwargs):
    raise Http404


def join_code_link(request, *args, **kwargs):
    raise Http404


def play(request, *args, **kwargs):
    raise Http404


def take_break(request, *args, **kwargs):
    raise Http404


def come_back(request, *args, **kwargs):
    raise Http404
