"""Issue 18: the kernel's import of the saves package stays light (conquest_widget/saves/_jsonschema.py).

jsonschema imports ``rfc3987_syntax`` (about 1 s building an RFC 3987 parser) for its ``iri``
format; the saves never use that format, so ``import conquest_widget.saves`` must not import
it, while jsonschema's ``iri`` checks keep working and a later ``import rfc3987_syntax`` gets
the real package.  Each check runs in a fresh interpreter (imports are process-wide).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

needs_rfc3987_syntax = pytest.mark.skipif(
    importlib.util.find_spec("rfc3987_syntax") is None, reason="rfc3987_syntax is not installed"
)


def run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120)
    return out.stdout.strip()


@needs_rfc3987_syntax
def test_importing_the_saves_does_not_build_the_iri_parser() -> None:
    assert run("import sys, conquest_widget.saves; print('jsonschema' in sys.modules, 'rfc3987_syntax' in sys.modules,"
               " 'lark' in sys.modules)") == "True False False"


@needs_rfc3987_syntax
def test_jsonschema_iri_format_still_checked_and_the_real_package_importable_afterwards() -> None:
    code = """
import sys
import conquest_widget.saves
import jsonschema
v = jsonschema.Draft202012Validator({"format": "iri"}, format_checker=jsonschema.FormatChecker())
print(v.is_valid("https://例え.jp/a?b#c"), v.is_valid("not an iri"), v.is_valid("http://[bad"))
import rfc3987_syntax
print(hasattr(rfc3987_syntax, "syntax_helpers"), getattr(rfc3987_syntax, "__conquest_stand_in__", False))
"""
    assert run(code).splitlines() == ["True False False", "True False"]


@needs_rfc3987_syntax
def test_the_same_iri_answers_as_plain_jsonschema() -> None:
    samples = ["https://例え.jp/", "mailto:a@b.c", "no scheme", "http://a b", "urn:isbn:0451450523", "", "x:"]
    code = f"""
import jsonschema, json
v = jsonschema.Draft202012Validator({{"format": "iri"}}, format_checker=jsonschema.FormatChecker())
print(json.dumps([v.is_valid(s) for s in {samples!r}]))
"""
    assert run("import conquest_widget.saves\n" + code) == run(code)


def test_an_earlier_jsonschema_import_is_left_alone() -> None:
    assert run("import jsonschema, sys; import conquest_widget.saves; "
               "print(sys.modules['jsonschema'] is jsonschema)") == "True"
