import re, html, pytest
from service.samples import generated
from service.schemas import GameHeaderSchema
@pytest.fixture
def client(archive):
    from web import create_app
    c = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    page = c.get("/games/new").get_data(as_text=True)
    c.environ_base["HTTP_X_CSRF_TOKEN"] = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return c
def test_show(client, archive):
    header, facts = generated(seed=3, players=2, max_rounds=2)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    r = client.post(f"/api/games/{game.id}/facts", json={"facts": facts}); assert r.status_code in (200,201)
    n = len(facts)
    page = client.get(f"/games/{game.id}/step/{n-3}?lang=pl").get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    open("/tmp/pl2/board_pl.svg","w").write(svg)
    seen=set()
    for t in re.findall(r"<title>(.*?)</title>", svg, re.S) + re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S):
        t=html.unescape(re.sub("<[^>]+>","",t)).strip()
        if t not in seen: seen.add(t); print("T", t)
