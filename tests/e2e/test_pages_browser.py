"""Tool pages in a real browser (Debian's chromium, driven by playwright), against a running platform.

Every archetype's page is generated, opened with its token, used for real (a row added, a sum computed, a
ranking loaded), and photographed in light and dark mode under test-output/screenshots/.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import ROOT, Server, Watched, aws_client, generate, http, open_tool, until
from tests.helpers import ARCHETYPE_PROMPTS, COMPOSED_PROMPTS
from toolgen.ui.render import templates_dir
from toolgen.ui.theme import tokens

SHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}
THEME = tokens(templates_dir())


def rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))


def make(server: Server, prompt: str, user: str) -> dict:
    job = generate(server, prompt, user=user)
    assert job["status"] == "succeeded", job
    return job


def fill_required(form) -> None:
    """A valid value in every required field the page did not fill itself."""
    for control in form.locator("input, textarea, select").all():
        if not control.evaluate("c => c.required && !c.value"):
            continue
        kind = control.get_attribute("type") or control.evaluate("c => c.tagName.toLowerCase()")
        number = 3.0
        if control.get_attribute("min"):
            number = max(number, float(control.get_attribute("min")))
        if control.get_attribute("max"):
            number = min(number, float(control.get_attribute("max")))
        value = {"number": f"{number:g}", "date": dt.date.today().isoformat(), "time": "07:15"}.get(
            kind, "from the browser"
        )
        control.fill(value)


def rows(page: Page) -> int:
    return page.locator("[data-rows] tbody tr").count()


@pytest.mark.parametrize("archetype", sorted(ARCHETYPE_PROMPTS))
def test_every_archetypes_page_round_trips_data_in_both_modes(server, watched, archetype):
    round_trip(server, watched, archetype, ARCHETYPE_PROMPTS[archetype])


@pytest.mark.parametrize("subject", sorted(COMPOSED_PROMPTS))
def test_every_composed_tools_page_round_trips_data_in_both_modes(server, watched, subject):
    page = round_trip(server, watched, subject, COMPOSED_PROMPTS[subject])
    if any("\u4e00" <= c <= "\u9fff" for c in COMPOSED_PROMPTS[subject]):  # a Chinese page shows no raw keys
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        until(page, "!document.querySelector('.loading')")
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # every figure
        shown = page.locator("main").inner_text()
        raw = re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", shown)
        assert not raw, raw
        for label in page.locator("label, th, [data-metric] span, [data-output] span").all_inner_texts():
            assert not label.strip() or re.search(r"[\u4e00-\u9fff]", label), label


def round_trip(server, watched, archetype: str, prompt: str) -> Page:
    user = f"pg-{archetype.replace('_', '-')}"
    job = make(server, prompt, user)
    page = open_tool(watched, job["ui_url"], server.token(user))
    assert page.locator("html").get_attribute("data-theme") == "macaron-ui-v3"

    create = page.locator("form[data-form=create]")
    compute = page.locator("form[data-form=compute]")
    if create.count():
        before = rows(page)
        fill_required(create.first)
        create.first.locator("button[type=submit]").click()
        until(page, f"document.querySelectorAll('[data-rows] tbody tr').length > {before}")
    elif compute.count():
        fill_required(compute.first)
        compute.first.locator("button[type=submit]").click()
        output = page.locator("[data-output]").first
        until(page, "document.querySelector('[data-output]').textContent.length > 0")
        assert ":" in output.inner_text()
    else:  # a ranking from a public API (the fixture standing in for it)
        until(page, "document.querySelectorAll('ol.ranking li b').length > 0")
    assert not page.locator(".widget-error").count(), page.locator(".widget-error").all_inner_texts()
    assert "error" not in (page.locator("#status").get_attribute("class") or ""), page.locator("#status").inner_text()

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{archetype}-light.png"), full_page=True)
    # on a 390 px phone: nothing scrolls sideways, and the action (its form or its button) starts on the first screen
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), archetype
    action = page.locator("#widgets form[data-form=create], #widgets form[data-form=compute], #widgets button").first
    assert action.bounding_box()["y"] < PHONE["height"], (archetype, action.bounding_box())
    page.screenshot(path=str(SHOTS / f"{archetype}-390.png"), full_page=True)
    page.set_viewport_size({"width": 900, "height": 1000})
    page.locator("#mode-toggle").click()
    assert page.locator("html").get_attribute("data-mode") == "dark"
    assert page.locator("#mode-toggle").get_attribute("aria-pressed") == "true"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == rgb(THEME["dark"]["bg"])
    page.screenshot(path=str(SHOTS / f"{archetype}-dark.png"), full_page=True)
    assert not watched.errors and not watched.dialogs
    return page


def test_a_new_run_shows_in_the_table_the_stats_and_the_chart(server, watched):
    job = make(server, "I want to log my morning runs", "pg-runner")
    page = open_tool(watched, job["ui_url"], server.token("pg-runner"))
    assert page.locator(".empty").first.is_visible()  # the empty state before any run
    form = page.locator("form[data-form=create]")
    form.get_by_label("Distance (km)").fill("5.2")
    form.get_by_label("Minutes").fill("29")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-rows] tbody tr")
    assert "5.20" in page.locator("[data-rows] tbody tr").first.inner_text()
    # a run log leads with its weekly goal: the count of runs is among all the figures
    until(page, "document.querySelector('tr[data-metric=runs] td').textContent === '1'")
    assert page.locator("section.card > .stats [data-metric=distance] b").inner_text() == "5.20"
    assert page.locator(".chart rect.bar").count() == 0  # one day is no chart: a bar alone says nothing
    assert page.locator("#status").inner_text() == "Saved."
    # a run the day before: two days, two bars
    form.get_by_label("Date").fill((dt.date.today() - dt.timedelta(days=1)).isoformat())
    form.get_by_label("Distance (km)").fill("3")
    form.get_by_label("Minutes").fill("18")
    form.locator("button[type=submit]").click()
    until(page, "document.querySelectorAll('.chart rect.bar').length === 2")
    assert not watched.errors


def test_a_list_longer_than_a_page_shows_more_and_fetches_the_rest(server, watched):
    # given a run log with more runs than one page holds (100)
    job = make(server, "I want to log my morning runs", "pg-many")
    token = server.token("pg-many")
    for i in range(103):
        run = {"date": f"2026-11-{1 + i % 28:02d}", "distance": 1 + i % 9, "minutes": 30}
        assert http("POST", job["tool_url"].rstrip("/") + "/runs", token=token, body=run).status == 201
    # when the page opens, it shows the first page and a "More" button
    page = open_tool(watched, job["ui_url"], token)
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 100")
    more = page.locator("button[data-more]")
    assert more.inner_text() == "More"
    # then "More" adds the rest below, and goes away once there is nothing more
    more.click()
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 103")
    assert not page.locator("button[data-more]").count()
    assert not watched.errors


def test_a_task_is_added_edited_ticked_and_deleted_back_to_the_empty_state(server, watched):
    job = make(server, "a todo list for chores", "pg-todo")
    page = open_tool(watched, job["ui_url"], server.token("pg-todo"))
    form = page.locator("form[data-form=create]")
    form.get_by_label("Task").fill("buy milk")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-rows] tbody tr")
    page.get_by_role("button", name="Edit").click()
    edit = page.locator("form[data-form=edit]")
    edit.get_by_label("Task").fill("buy oat milk")
    edit.get_by_role("button", name="Save changes").click()
    until(page, "document.querySelector('[data-rows] tbody tr td').textContent === 'buy oat milk'")
    # (the status already says "Saved." from the edit: the tick's own answer is what is waited for)
    with page.expect_response(lambda r: r.request.method == "PATCH" and r.ok):
        page.locator("tbody input[type=checkbox]").check()
    page.reload()  # the token stays in the tab's session storage
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("tbody input[type=checkbox]").is_checked()
    page.get_by_role("button", name="Delete").click()
    page.wait_for_selector("p.empty")
    assert page.locator("p.empty").first.inner_text() == "Nothing here yet."
    assert not watched.errors


def test_the_form_is_usable_from_the_keyboard_with_a_visible_focus_ring(server, watched):
    job = make(server, "a reading list", "pg-keys")
    page = open_tool(watched, job["ui_url"], server.token("pg-keys"))
    first = page.locator("form[data-form=create] input, form[data-form=create] textarea").first
    first.focus()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.type("Dune")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-rows] tbody tr")
    assert "Dune" in page.locator("[data-rows] tbody tr").first.inner_text()


def test_browser_validation_stops_a_bad_value_before_it_is_sent(server, watched):
    job = make(server, "I want to log my morning runs", "pg-invalid")
    page = open_tool(watched, job["ui_url"], server.token("pg-invalid"))
    distance = page.locator("form[data-form=create]").get_by_label("Distance (km)")
    distance.fill("-3")
    page.locator("form[data-form=create] button[type=submit]").click()
    assert distance.evaluate("c => c.validity.rangeUnderflow && c.validationMessage.length > 0")
    assert page.locator("p.empty").count() >= 1 and rows(page) == 0


def test_a_request_with_markup_shows_as_text_and_runs_nothing(server, watched):
    hostile = 'a todo list <script>alert(1)</script> "><img src=x onerror=alert(1)>'
    job = make(server, hostile, "pg-hostile")
    page = open_tool(watched, job["ui_url"], server.token("pg-hostile"))
    shown = page.locator("header .request").inner_text()
    assert "<script>alert(1)</script>" in shown and '"><img src=x onerror=alert(1)>' in shown
    assert page.locator("header img, header script").count() == 0
    assert watched.dialogs == []


def test_a_tool_that_answers_with_an_error_shows_its_message(server, watched):
    job = make(server, "a reading list", "pg-broken")
    aws_client(server, "lambda").delete_function(FunctionName=f"toolgen-tool-{job['tool_id']}")
    watched.page.goto(f"{job['ui_url']}#token={server.token('pg-broken')}")
    watched.page.wait_for_selector(".widget-error")
    assert "no such tool" in watched.page.locator(".widget-error").first.inner_text()


def test_a_chinese_request_gets_a_chinese_page(server, watched):
    job = make(server, "我想记录每天晨跑", "pg-zh")
    page = open_tool(watched, job["ui_url"], server.token("pg-zh"))
    assert page.locator("html").get_attribute("lang") == "zh"
    assert page.locator("form[data-form=create] button[type=submit]").inner_text() == "添加"


def test_a_page_served_from_the_bucket_calls_its_tool_across_origins(server, watched, bucket_site):
    job = make(server, "a todo list for chores", "pg-bucket")
    stored = aws_client(server, "s3").get_object(Bucket="toolgen-pages", Key=f"pages/{job['tool_id']}/index.html")
    bucket_site.pages[f"/{job['tool_id']}.html"] = (stored["Body"].read().decode(), stored["Metadata"]["csp"])
    page = open_tool(watched, f"{bucket_site.url}/{job['tool_id']}.html", server.token("pg-bucket"))
    assert not page.url.startswith(server.url)  # another origin than the tool's
    page.locator("form[data-form=create]").get_by_label("Task").fill("from the bucket")
    page.locator("form[data-form=create] button[type=submit]").click()
    page.wait_for_selector("[data-rows] tbody tr")
    assert "from the bucket" in page.locator("[data-rows] tbody tr").first.inner_text()
    assert not watched.errors


def test_the_same_page_from_an_origin_the_tool_does_not_allow_cannot_reach_it(server, watched):
    from tests.e2e.conftest import StaticSite

    job = make(server, "a todo list for chores", "pg-elsewhere")
    stored = aws_client(server, "s3").get_object(Bucket="toolgen-pages", Key=f"pages/{job['tool_id']}/index.html")
    elsewhere = StaticSite()
    try:
        elsewhere.pages["/p.html"] = (stored["Body"].read().decode(), stored["Metadata"]["csp"])
        watched.page.goto(f"{elsewhere.url}/p.html#token={server.token('pg-elsewhere')}")
        watched.page.wait_for_selector(".widget-error")
        assert "could not be reached" in watched.page.locator(".widget-error").first.inner_text()
    finally:
        elsewhere.stop()


def test_a_suggestion_banner_accepted_on_the_page_revises_the_tool(server, watched):
    from tests.e2e.test_growth import TEN_MORNINGS, log_runs

    token = server.token("bea")
    tool = make(server, "log my runs", "bea")
    log_runs(server, token, tool, TEN_MORNINGS)
    page = open_tool(watched, tool["ui_url"], token)
    page.wait_for_selector("#suggestion", timeout=20000)
    banner = page.locator("#suggestion").inner_text()
    assert "06:00" in banner and "10" in banner, banner
    assert page.locator("form input[name=start]").first.input_value() == ""  # no default yet
    # accepting revises the tool; the page reloads as the new version and says what changed
    with page.expect_navigation(timeout=60000):
        page.click("#suggestion-accept")
    page.wait_for_selector("body[data-ready=true]", timeout=20000)
    assert page.locator("#changes").is_visible()
    default = page.locator("form input[name=start]").first.input_value()
    assert "06:00" <= default < "08:00", default
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 10")
    page.wait_for_timeout(500)  # the banner's own call has ended: the answered suggestion is not offered again
    assert page.locator("#suggestion").count() == 0
    # a follow-up adds a field, and the page shows it
    reply = http(
        "POST",
        f"{server.url}/v1/tools/{tool['tool_id']}/revisions",
        token=token,
        body={"prompt": "also track my heart rate"},
    )
    assert reply.status == 202, reply.body
    from tests.e2e.conftest import wait_for_job

    assert wait_for_job(server, reply.body["job_id"], token)["status"] == "succeeded"
    page.reload()
    page.wait_for_selector("body[data-ready=true]", timeout=20000)
    labels = " ".join(page.locator("form label").all_inner_texts()).lower()
    assert "heart" in labels or "pulse" in labels, labels
    assert not watched.errors and not watched.dialogs, (watched.errors, watched.dialogs)


def test_a_rejected_banner_goes_and_does_not_come_back(server, watched):
    from tests.e2e.test_growth import TEN_MORNINGS, log_runs

    token = server.token("ben")
    tool = make(server, "我想记录跑步", "ben")
    log_runs(server, token, tool, TEN_MORNINGS)
    page = open_tool(watched, tool["ui_url"], token)
    page.wait_for_selector("#suggestion", timeout=20000)
    assert re.search(r"[\u4e00-\u9fff]", page.locator("#suggestion").inner_text())
    page.click("#suggestion-reject")
    until(page, "!document.querySelector('#suggestion')")
    page.reload()
    page.wait_for_selector("body[data-ready=true]", timeout=20000)
    page.wait_for_timeout(1000)
    assert page.locator("#suggestion").count() == 0
    assert not watched.errors and not watched.dialogs, (watched.errors, watched.dialogs)


def test_a_rota_shows_whose_turn_on_a_phone_in_chinese_and_dark(server, browser):
    # given a Chinese rota for four, opened on a 390 px phone in dark mode
    job = make(server, "宿舍四个人轮流值日：扫地、拖地、擦桌子", "pg-rota")
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = open_tool(Watched(context.new_page()), job["ui_url"], server.token("pg-rota"))
    until(
        page, "document.querySelectorAll('[data-rows] tbody tr').length >= 3"
    )  # the listed duties, stored as it was made
    # then each duty shows whose turn it is, the people by the names the rota gave them, in Chinese, with no
    # horizontal scroll and the form to add a duty on the page
    shown = page.locator("main").inner_text()
    assert "本周轮到" in shown and "成员1" in shown and "成员2" in shown and "成员4" in shown, shown
    # whose turn it is shows beside the duty, on the screen, not past the table's right edge
    turn = page.locator("[data-rows] th", has_text="本周轮到").first.bounding_box()
    assert turn["x"] + turn["width"] <= 390, turn
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("form[data-form=create]").count() == 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "rota-zh-390-dark.png"), full_page=True)
    context.close()


def test_a_lookup_reading_two_apis_shows_both_on_a_phone(server, browser):
    # given a surf check asked for the wind its marine source lacks, on a 390 px phone
    job = make(server, "surf check for Lisbon this week: swell height, and the wind", "pg-surf")
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light")
    page = open_tool(Watched(context.new_page()), job["ui_url"], server.token("pg-surf"))
    # then both sources' figures load, one section each, with no error and no horizontal scroll
    until(page, "document.body.innerText.includes('Wind') && !document.querySelector('.loading')")
    assert not page.locator(".widget-error").count(), page.locator(".widget-error").all_inner_texts()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / "surf-two-apis-390.png"), full_page=True)
    context.close()


@pytest.mark.parametrize(
    ("prompt", "lang", "mode"),
    [("log my blood pressure readings morning and evening", "en", "light"), ("记录我每天早晚的血压", "zh", "dark")],
)
def test_a_measurement_log_on_a_phone_puts_the_form_first_and_charts_each_reading(server, browser, prompt, lang, mode):
    # given a blood-pressure log with two readings on one day and one the next, opened on a 390 px phone
    user = f"pg-bp-{lang}"
    job = make(server, prompt, user)
    token = server.token(user)
    record = http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=token).body
    add = next(o["path"] for o in record["program"]["operations"] if o["kind"] == "create")
    readings = [("2026-12-04", "08:00", 132, 85), ("2026-12-04", "20:00", 124, 80), ("2026-12-05", "08:00", 128, 82)]
    for day, time, high, low in readings:
        body = {"date": day, "time": time, "systolic": high, "diastolic": low}
        assert http("POST", f"{job['tool_url']}{add}", token=token, body=body).status == 201
    context = browser.new_context(viewport=PHONE, color_scheme=mode)
    page = open_tool(Watched(context.new_page()), job["ui_url"], token)
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 3 && !document.querySelector('.loading')")
    # then the form to add a reading starts on the first screen, and nothing scrolls sideways
    form = page.locator("form[data-form=create]")
    assert form.bounding_box()["y"] < PHONE["height"] / 2, form.bounding_box()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # a few figures first, the rest behind a labelled disclosure, closed
    headline = page.locator("section.card > .stats .stat")
    assert 2 <= headline.count() <= 4
    disclosure = page.locator("details.figures")
    assert disclosure.count() == 1 and disclosure.get_attribute("open") is None
    assert disclosure.locator("summary").inner_text() == ("All figures" if lang == "en" else "全部数据")
    assert not disclosure.locator("tr[data-metric]").first.is_visible()
    disclosure.locator("summary").click()
    assert disclosure.locator("tr[data-metric]").count() >= 4 and disclosure.locator("h3").count() >= 2
    # the chart draws each reading as a point (two lines: systolic and diastolic), never a day's sum (256)
    points = sorted(
        float(v) for v in page.locator(".chart circle.point").evaluate_all("cs => cs.map(c => c.dataset.value)")
    )
    assert points == sorted([132.0, 124.0, 128.0, 85.0, 80.0, 82.0]), points
    assert page.locator(".chart polyline.line").count() == 2
    assert "256" not in page.locator(".chart").inner_text()
    # and every button is a finger's size
    heights = page.locator("main button:visible").evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"blood-pressure-{lang}-390-{mode}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize(
    ("prompt", "people"),
    [
        ("split the dinner bill with Alice and Bob", ["Me", "Alice", "Bob"]),
        ("我和小王、小李分摊房租水电", ["我", "小王", "小李"]),
    ],
)
def test_who_pays_whom_is_a_line_per_payment_on_a_phone(server, browser, prompt, people):
    # given a shared-expenses tool where one person paid most
    user = f"pg-settle-{len(prompt)}"
    job = make(server, prompt, user)
    token = server.token(user)
    for payer, amount in [(people[1], 90), (people[1], 60), (people[2], 30)]:
        body = {"description": "x", "amount": amount, "paid_by": payer, "date": "2026-12-01"}
        assert http("POST", f"{job['tool_url']}/expenses", token=token, body=body).status == 201
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    page = open_tool(Watched(context.new_page()), job["ui_url"], token)
    until(page, "document.querySelectorAll('[data-metric=transfers] li').length > 0")
    # then each payment is its own line, "who → whom: how much", in a card as wide as the page allows
    lines = page.locator("[data-metric=transfers] li").all_inner_texts()
    assert len(lines) == 2 and sorted(line.rsplit(": ", 1)[1] for line in lines) == ["30", "60"], lines
    assert {line.split(" → ")[1].split(":")[0] for line in lines} == {people[1]}  # both pay the one who paid most
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"settle-up-{'zh' if people[0] == '我' else 'en'}-390.png"), full_page=True)
    context.close()


def test_a_calculator_whose_request_gave_its_numbers_opens_with_the_answer(server, browser):
    # given a calculator asked with its numbers ("10000 at 5% for 10 years"), opened on a phone
    job = make(server, "compound interest: 10000 at 5% a year for 10 years, how much will I have", "pg-answer")
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    page = open_tool(Watched(context.new_page()), job["ui_url"], server.token("pg-answer"))
    # then the answer is on the page before anyone presses the button, with no error said
    until(page, "document.querySelector('.output .figure') !== null")
    shown = page.locator(".output").first.inner_text()
    assert "10000" in page.locator("form[data-form=compute]").evaluate(
        "f => [...f.elements].map(e => e.value).join(' ')"
    )
    assert page.locator("#status").inner_text() == ""
    # and it is the answer the button gives for the same values
    page.evaluate("document.querySelector('.output').replaceChildren()")
    page.locator("form[data-form=compute] button[type=submit]").click()
    until(page, "document.querySelector('.output .figure') !== null")
    assert page.locator(".output").first.inner_text() == shown
    context.close()
