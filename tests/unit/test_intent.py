import pytest

from toolgen.intent import classify

CASES = [
    ("I want to log my morning runs", "run_log"),
    ("我想记录每天晨跑", "run_log"),
    ("track my jogging distance and pace", "run_log"),
    ("记录我的夜跑配速", "run_log"),
    ("rank the hottest cities this week", "weather_ranking"),
    ("本周北京、上海、广州哪个城市最热", "weather_ranking"),
    ("which city will be rainiest this week, London or Paris?", "weather_ranking"),
    ("比较几个城市的天气预报", "weather_ranking"),
    ("convert kilometers to miles", "unit_converter"),
    ("公里换算英里", "unit_converter"),
    ("how many feet in a mile", "unit_converter"),
    ("摄氏度转华氏度", "unit_converter"),
    ("track my daily meditation habit", "habit_tracker"),
    ("每天读书打卡", "habit_tracker"),
    ("keep my flossing streak going", "habit_tracker"),
    ("养成早睡的习惯", "habit_tracker"),
    ("a to-do list for my chores", "todo_list"),
    ("待办清单", "todo_list"),
    ("a checklist of errands for the weekend", "todo_list"),
    ("帮我列一个任务清单", "todo_list"),
]


@pytest.mark.parametrize(("prompt", "archetype"), CASES)
def test_requests_in_both_languages_get_their_archetype(prompt, archetype):
    intent = classify(prompt)
    assert intent.archetype == archetype
    assert 0.45 <= intent.confidence <= 1


@pytest.mark.parametrize("prompt", ["write my thesis", "book me a flight to Tokyo", "帮我写一首诗", "hello"])
def test_out_of_scope_requests_get_no_archetype(prompt):
    intent = classify(prompt)
    assert intent.archetype is None
    assert intent.confidence < 0.45
    assert intent.slots == {}


def test_weather_request_needs_an_external_api_and_names_its_cities_in_order():
    intent = classify("rank Beijing, Shanghai and Guangzhou by max temperature")
    assert intent.needs_external_api is True
    assert intent.slots["cities"] == ["Beijing", "Shanghai", "Guangzhou"]
    assert intent.slots["metric"] == "temp_max"
    assert intent.slots["order"] == "desc"


def test_chinese_city_names_map_to_canonical_names():
    intent = classify("本周成都和杭州哪个最冷")
    assert intent.slots["cities"] == ["Chengdu", "Hangzhou"]
    assert intent.slots["metric"] == "temp_min"
    assert intent.lang == "zh"


def test_unit_slots_prefer_the_longest_alias():
    # 公里 (km) must not be read as a bare 里, and 毫米 (mm) not as 米 (m)
    assert classify("公里换算英里").slots["units"] == ["km", "mi"]
    assert classify("毫米换算英寸").slots["units"] == ["mm", "in"]


def test_local_services_need_no_external_api():
    assert classify("track my daily meditation habit").needs_external_api is False


@pytest.mark.parametrize(
    ("prompt", "start"),
    [
        ("log my runs, I start at 6:30", "06:30"),
        ("log my runs at 7 am", "07:00"),
        ("早上6点半晨跑", "06:30"),
        ("晚上8点夜跑记录", "20:00"),
    ],
)
def test_run_start_time_is_read_from_the_request(prompt, start):
    assert classify(prompt).slots["start"] == start


def test_ambiguous_request_lists_candidates():
    # as much a habit as a to-do: too close to call
    intent = classify("daily tasks habit")
    assert intent.archetype is None
    assert set(intent.candidates) >= {"habit_tracker", "todo_list"}
