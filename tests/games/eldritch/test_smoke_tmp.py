from tests.games.eldritch.helpers import make_eldritch, post, game, text


def test_pages(owner, owner_client):
    c = make_eldritch(owner)
    for url in ("", "p/setup/", "p/dice/", "p/log/"):
        r = owner_client.get(f"/c/{c.pk}/{url}")
        assert r.status_code == 200, (url, text(r)[:3000])
    r = post(owner_client, c, "eh.draw", region="eh-mythos", version=c.version)
    assert r.status_code == 302, text(r)
    print(game(c)["draws"])
    r = owner_client.get(f"/c/{c.pk}/")
    open("/tmp/eh_table.html", "w").write(text(r))
    r = owner_client.get("/new/eldritch/")
    print(r.status_code)
