"""Security headers on every answer: a policy that runs no inline script,
no framing, no type sniffing, no paths leaked to other sites; the API
documentation's one inline script runs by its own nonce."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from pbem.server import Server
from pbem.settings import Settings
from pbem.web import create_app
from tests.web.test_pages import server  # noqa: F401 (a fixture)


@pytest.fixture
def browser(server: Server) -> TestClient:  # noqa: F811
    return TestClient(create_app(server, Settings(secret_key="k" * 40)))


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/vasco",
        "/vasco/standings",
        "/login",
        "/signup",
        "/static/pbem.css",
        "/api/games",
        "/nowhere",
    ],
)
def test_every_answer_carries_the_headers(browser: TestClient, path: str) -> None:
    answer = browser.get(path)
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"


def test_the_pages_have_no_inline_script(browser: TestClient) -> None:
    for path in ("/", "/vasco", "/login", "/signup"):
        html = browser.get(path).text
        assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html)), path
        assert " on" not in " ".join(re.findall(r"<[^>]+ on\w+=", html)), path


def test_the_api_documentation_runs_its_script_by_nonce(browser: TestClient) -> None:
    answer = browser.get("/docs")
    [key] = re.findall(r"'nonce-([^']+)'", answer.headers["content-security-policy"])
    inline = re.findall(r"<script( nonce=\"[^\"]*\")?>", answer.text)
    assert inline and all(found == f' nonce="{key}"' for found in inline)
    assert (
        browser.get("/docs").headers["content-security-policy"]
        != answer.headers["content-security-policy"]
    )  # a new nonce each time


def test_session_cookies_are_secure_when_the_site_is_https(server: Server) -> None:  # noqa: F811
    client = TestClient(
        create_app(server, Settings(secret_key="k" * 40, web_url="https://games.example.org")),
        base_url="https://games.example.org",
    )
    cookie = client.get("/login").headers["set-cookie"]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower()
