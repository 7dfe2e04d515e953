"""English and Polish pages (decision 0019): the language follows the browser, a switch overrides it.

The catalogues are the ``.po`` files under ``web/translations``; they are compiled in memory when
the app starts (no ``.mo`` files, which are generated data), so a fresh clone serves Polish as is.
The chosen language is put in :mod:`service.i18n` for the request, so templates (``_()``,
``gettext``, ``ngettext``), Python messages and the ruleset's sentences and names all speak it.

Choosing: ``?lang=pl`` (or ``en``) on any page, remembered in the ``lang`` cookie; else the cookie;
else the best match of the browser's Accept-Language; else English.
"""
from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, redirect, request, url_for

from service import i18n

TRANSLATIONS = Path(__file__).parent / "translations"
DOMAIN = "messages"
LANGUAGES = {"en": "English", "pl": "Polski"}
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


# words the pages show from data (modes, statuses, phases, steps, outcomes): ``{{ value|t }}`` translates them
WORDS = (
    i18n.N_("standard"), i18n.N_("solo"), i18n.N_("coop"), i18n.N_("in play"), i18n.N_("finished"),
    i18n.N_("abandoned"), i18n.N_("incomplete"), i18n.N_("setup"), i18n.N_("player"), i18n.N_("event"),
    i18n.N_("ended"), i18n.N_("won"), i18n.N_("lost"), i18n.N_("undetermined"), i18n.N_("survival"),
    i18n.N_("contingency"), i18n.N_("final scan"), i18n.N_("objective"), i18n.N_("board"), i18n.N_("characters"),
    i18n.N_("objectives"), i18n.N_("first player"), i18n.N_("turns"), i18n.N_("draw"), i18n.N_("time"),
    i18n.N_("noise cleanup"), i18n.N_("attacks"), i18n.N_("fire"), i18n.N_("event card"), i18n.N_("colony"),
    i18n.N_("css launch"), i18n.N_("ready"), i18n.N_("round end"), i18n.N_("self destruct"), i18n.N_("everyone died"),
    i18n.N_("time ran out"), i18n.N_("base destroyed"), i18n.N_("all escaped"), i18n.N_("game ended"),
    # how a game ended (the result's ``ending``, shown as ``ending|replace('_', ' ')|t``)
    i18n.N_("time out"), i18n.N_("alarm procedure"), i18n.N_("no characters left"),
    # the sub-steps a position names while the rules wait for it (lockdown view.PENDING_STEP; decision 0023)
    i18n.N_("exploration"), i18n.N_("noise roll"), i18n.N_("encounter"), i18n.N_("attack"), i18n.N_("injury check"),
    i18n.N_("retreat"), i18n.N_("resolving"),
)


# a position's phase as the strip names it: "Round 1 · player phase · turns", "Runda 1 · faza graczy · tura"
PHASES = {"setup": i18n.N_("setup"), "player": i18n.N_("player phase"), "event": i18n.N_("event phase"),
          "ended": i18n.N_("ended")}


def phase_words(phase) -> str:
    """``{{ position.phase|phase }}``: the phase in the language in force, as a phrase that reads alone."""
    if phase in (None, ""):
        return ""
    return i18n.gettext(PHASES.get(str(phase), str(phase)))


def po_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def translations(code: str):
    """The catalogue of ``code`` compiled in memory from its ``.po`` (English: the msgids themselves)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import NullTranslations, Translations

    path = po_path(code)
    if code == i18n.DEFAULT or not path.exists():
        return NullTranslations()
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=code, domain=DOMAIN)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def choose() -> str:
    """The language of this request: ``?lang=``, the ``lang`` cookie, Accept-Language, English."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    kept = request.cookies.get(COOKIE)
    if kept in LANGUAGES:
        return kept
    return request.accept_languages.best_match(list(LANGUAGES), default=i18n.DEFAULT)


def _safe_next(target: str | None) -> str:
    """Only a path on this site (no scheme, no host) is followed after switching."""
    if not target:
        return url_for("replay.games")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return url_for("replay.games")
    return target


def _back_to() -> str:
    """The page the switch was pressed on: the Referer when it is this site's (a replay moves its URL as it
    steps, after the link was drawn), else ``?next=``, else the games list."""
    ref = urlsplit(request.referrer or "")
    if ref.netloc and ref.netloc == request.host and ref.path.startswith("/") and not ref.path.startswith("/language/"):
        return ref.path + (f"?{ref.query}" if ref.query else "")
    return _safe_next(request.args.get("next"))


def install(app: Flask) -> None:
    for code in LANGUAGES:  # compile every catalogue now: a broken .po stops the start, not a page
        translations(code)

    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.filters["t"] = lambda value: i18n.gettext(str(value)) if value not in (None, "") else value
    app.jinja_env.filters["phase"] = phase_words
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: i18n.gettext(s), ngettext=lambda s, p, n: i18n.ngettext(s, p, n), newstyle=True)

    @app.before_request
    def _pick_language():
        code = i18n.DEFAULT if request.blueprint == "api" else choose()  # the JSON API is an interface: English
        request.environ["nemesis.language_token"] = i18n.set_language(code, translations(code))

    @app.teardown_request
    def _forget_language(_exc=None):
        token = request.environ.pop("nemesis.language_token", None)
        if token is not None:
            try:
                i18n.reset(token)
            except ValueError:  # set in another context (a streamed body, a test client): back to the default
                i18n.set_language(i18n.DEFAULT)

    @app.after_request
    def _remember_language(response):
        asked = request.args.get("lang")
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True)
        if response.mimetype == "text/html":  # pages differ by language; static files and JSON do not
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
            response.headers.setdefault("Content-Language", i18n.current())
        return response

    @app.get("/language/<code>")
    def set_language(code: str):
        """The switch: remember ``code`` and go back to the page it was pressed on."""
        if code not in LANGUAGES:
            from service.errors import InvalidInput

            raise InvalidInput(i18n._("no language %(code)r; choose one of %(choices)s")
                               % {"code": code, "choices": ", ".join(LANGUAGES)}, field="code")
        response = redirect(_back_to(), 303)
        response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True)
        return response

    @app.context_processor
    def _language_context():
        def switch_url(code: str) -> str:
            here = request.full_path if request.query_string else request.path
            return url_for("set_language", code=code, next=here)
        return {"locale": i18n.current(), "languages": LANGUAGES, "switch_url": switch_url}

