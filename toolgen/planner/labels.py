"""Human text a plan carries (titles, field labels, summaries), in the request's language."""

from __future__ import annotations

_TEXT: dict[str, tuple[str, str]] = {
    # key: (English, Chinese)
    "run_log.title": ("Run Log", "跑步记录"),
    "run_log.description": (
        "Log each run and see your distance, pace and streak.",
        "记录每次跑步，查看里程、配速和连续天数。",
    ),
    "run": ("Run", "跑步"),
    "run.add": ("Log a run", "记录一次跑步"),
    "run.list": ("List runs, newest first", "按日期列出跑步记录"),
    "run.stats": ("Totals, pace and streak", "总里程、配速和连续天数"),
    "run.delete": ("Delete a run", "删除一条跑步记录"),
    "date": ("Date", "日期"),
    "distance_km": ("Distance (km)", "距离（公里）"),
    "distance_mi": ("Distance (miles)", "距离（英里）"),
    "minutes": ("Minutes", "用时（分钟）"),
    "start": ("Start time", "开始时间"),
    "note": ("Note", "备注"),
    "weather.title.temp_max": ("Hottest Cities This Week", "本周最热城市排行"),
    "weather.title.temp_min": ("Coldest Cities This Week", "本周最冷城市排行"),
    "weather.title.precipitation": ("Rainiest Cities This Week", "本周降水最多城市排行"),
    "weather.title.wind": ("Windiest Cities This Week", "本周风力最大城市排行"),
    "weather.description": ("Ranks {cities} by this week's forecast.", "按本周天气预报给 {cities} 排名。"),
    "convert.title.length": ("Length Converter", "长度换算"),
    "convert.title.mass": ("Weight Converter", "重量换算"),
    "convert.title.temperature": ("Temperature Converter", "温度换算"),
    "convert.title.volume": ("Volume Converter", "容量换算"),
    "convert.description": ("Convert a value between units.", "在不同单位之间换算数值。"),
    "convert": ("Convert a value", "换算数值"),
    "value": ("Value", "数值"),
    "from": ("From", "从"),
    "to": ("To", "到"),
    "habit.title": ("Habit Tracker", "习惯打卡"),
    "habit.description": ("Check in each day and keep your streaks going.", "每天打卡，保持连续记录。"),
    "habit": ("Habit", "习惯"),
    "checkin": ("Check-in", "打卡"),
    "habit.add": ("Check in a habit", "打卡一次"),
    "habit.list": ("List check-ins, newest first", "按日期列出打卡记录"),
    "habit.stats": ("Days and current streak per habit", "每个习惯的天数和当前连续天数"),
    "habit.delete": ("Delete a check-in", "删除一条打卡"),
    "todo.title": ("To-do List", "待办清单"),
    "todo.description": ("Add tasks, tick them off, see what is left.", "添加任务、勾选完成、查看剩余事项。"),
    "task": ("Task", "任务"),
    "due": ("Due", "截止日期"),
    "priority": ("Priority", "优先级"),
    "done": ("Done", "已完成"),
    "todo.add": ("Add a task", "添加任务"),
    "todo.list": ("List tasks", "列出任务"),
    "todo.update": ("Change a task (e.g. mark it done)", "修改任务（如标记完成）"),
    "todo.delete": ("Delete a task", "删除任务"),
    "todo.stats": ("How many tasks are open and done", "未完成和已完成任务数"),
}


def text(key: str, lang: str) -> str:
    """The text for ``key`` in ``lang`` ('en' or 'zh'); KeyError for an unknown key."""
    en, zh = _TEXT[key]
    return zh if lang == "zh" else en
