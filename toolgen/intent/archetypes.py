"""The archetypes the offline classifier knows: cue phrases with weights, in English and Chinese.

Data, so that widening coverage means adding rows, not code. English cues are regular expressions matched on word
boundaries, case-insensitively; Chinese cues are patterns matched anywhere (most are plain substrings). The tables
are kept compact by hand (fmt: off): one archetype's cues read as one paragraph. Weights: 3 names the tool outright,
2 is a strong hint, 1 or less only tips a balance. OUT_OF_SCOPE holds requests for things no tool here can do (book
a flight, write an essay); when it outscores every archetype the request is refused rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Archetype:
    name: str
    needs_external_api: bool
    en: tuple[tuple[str, float], ...]
    zh: tuple[tuple[str, float], ...]
    question: str  # asked when the request might be this but is not clear enough
    question_zh: str = ""  # the same question, asked of a request in Chinese


# fmt: off
_CURRENCY_WORDS = (
    r"(dollars?|usd|euros?|eur|yen|jpy|yuan|rmb|cny|renminbi|pounds? sterling|gbp|sterling|hkd|korean won|"
    r"krw|aud|cad|chf|francs?|rupees?|inr|baht|thb|sgd|twd|rubles?|roubles?|pesos?|mxn|nzd|ringgit|myr)"
)

ARCHETYPES: tuple[Archetype, ...] = (
    Archetype(
        'weather_ranking',
        True,
        en=(
            ('weather', 3), ('forecasts?', 3), ('(hottest|coldest|warmest|coolest|windiest|rainiest|wettest)', 3),
            ('(sunniest|driest|snowiest|most humid|chilliest|mildest)', 3),
            ('(hotter|colder|warmer|cooler|rainier|windier|sunnier)', 2),
            ('(least|most) (rainy|rain|sunny|windy|snow)', 2.5), ('temperatures?|temps?', 2),
            ('rain(fall|y|s)?|showers', 1.5), ('precipitation', 2), ('wind(y|s)?', 1), ('cities', 2),
            ('(city|towns?)', 1), ('rank(ing|ed|s)?', 1), ('sunn(y|iest)|sunshine', 1.5), ('humid(ity)?', 2),
            ('heat ?waves?', 2), ('how (hot|cold|warm)', 2), ('degrees', 1), ('snow(fall|y)?', 1), ('uv index', 2),
            ('umbrella', 1.5), ('climate', 1),
        ),
        zh=(
            ('天气', 3), ('预报', 3), ('最热', 3), ('最冷', 3), ('更热', 2.5), ('更冷', 2.5), ('凉快', 2),
            ('暖和', 2), ('气温', 3), ('温度', 2), ('降雨', 2), ('下雨', 2), ('降水', 2), ('雨', 0.5), ('风力', 2),
            ('大风', 1.5), ('刮风', 1.5), ('城市', 2), ('排名', 1), ('排行', 1), ('排序', 1), ('高温', 2),
            ('低温', 2), ('湿度', 2), ('晴', 1), ('下雪', 1.5), ('几度', 2), ('带伞', 1.5), ('热', 0.5), ('冷', 0.5),
            ('(会不会|是不是|有多|多).{0,3}(热|冷|下雨)', 2.5), ('很热|很冷', 1),
        ),
        question="Do you want to rank cities by this week's forecast (temperature, rain or wind)?",
        question_zh="你是想按本周天气预报（气温、降雨或风力）给几个城市排名吗？",
    ),
    Archetype(
        'currency_converter',
        True,
        en=(
            ('currenc(y|ies)', 3), ('exchange rates?', 3), ('forex', 3), ('fx', 2.5), ('exchange money', 3),
            (_CURRENCY_WORDS, 1.5),
            ('money conver(sion|ter|t)', 3), ('(exchange|swap|change) (my )?(money|cash)', 3), ('rates?', 0.5),
            ('currency convert(er|ing)?', 1.5),
        ),
        zh=(
            ('汇率', 3), ('货币', 3), ('换汇', 3), ('外汇', 3), ('兑换', 2), ('换钱', 2.5), ('美元', 1.5),
            ('美金', 1.5), ('人民币', 1.5), ('(汇率|货币)(换算|转换|计算)', 1.5), ('欧元', 1.5), ('日元', 1.5),
            ('英镑', 1.5), ('港币', 1.5), ('港元', 1.5), ('韩元', 1.5), ('澳元', 1.5), ('加元', 1.5), ('泰铢', 1.5),
            ('卢布', 1.5), ('新台币', 1.5), ('瑞郎', 1.5),
        ),
        question="Do you want to convert amounts between currencies at today's rates?",
        question_zh="你是想按今天的汇率换算不同货币的金额吗？",
    ),
    Archetype(
        'run_log',
        False,
        en=(
            ('(?<!to )runs?', 2), ('running(?! out)', 2), ('(running|run|jogging) (diary|log|journal|record)', 1.5),
            ('ran', 1.5), ('runner', 2), ('jog(s|ged|ging)?', 2.5), ('marathons?', 2.5), ('half[- ]marathon', 1),
            ('pace', 1), ('(5|10) ?k', 1.5), ('treadmill', 2), ('mileage', 1), ('trail runs?', 1), ('strava', 2),
            ('parkrun', 3), ('laps', 1), ('sprints?', 1),
        ),
        zh=(
            ('跑步', 3), ('晨跑', 3), ('夜跑', 3), ('慢跑', 3), ('跑', 1.5), ('跑了', 1), ('配速', 2),
            ('马拉松', 2.5), ('半马', 2), ('全马', 2), ('跑量', 3), ('跑道', 1),
        ),
        question='Do you want to log your runs (date, distance, time)?',
        question_zh="你是想记录每次跑步（日期、距离、用时）吗？",
    ),
    Archetype(
        'habit_tracker',
        False,
        en=(
            ('habits?', 3), ('streaks?', 2.5), ('check[- ]?ins?', 2), ('daily', 1), ('every ?day', 1),
            ('each day', 1), ('in a row', 2.5), ('consecutive', 2), ('routines?', 1.5), ('consisten(t|cy)', 1.5),
            ('stick (to|with)', 1), ("(don'?t|never) (break|miss)", 2),
            ('tick (a box|it off) (daily|every day)', 1.5), ('did i', 1),
            ('every (morning|night|evening|weekday)', 1), ('meditat(e|ion|ing)', 1), ('floss(ing)?', 1.5),
            ('vitamins?', 1.5), ('practi[sc](e|ed|ing)', 1), ('stretch(ing)?', 0.5), ('remember to', 0.5),
            ('medication|medicine|meds|pills?', 1.5), ('challenge', 1.5),
            ('no[- ](sugar|alcohol|smoking|junk|caffeine)', 2), ('quit(ting)?|sober|abstain', 1.5),
            ('(how many|number of) days (so far|in a row|since)', 2), ('(one )?(tap|tick|check) (a|per|each) day', 2),
            ('skipp(ing|ed)|skip', 1), ('walks?', 0.5), ('mark (each|every|the) day', 2), ('(once|twice) a day', 1),
            ('gym|workouts?|exercis(e|ing)', 1.5), ('days without', 2.5),
        ),
        zh=(
            ('习惯', 3), ('打卡', 3), ('坚持', 2), ('每天', 1), ('每日', 1), ('天天', 1), ('连续', 1.5), ('养成', 2),
            ('冥想', 1), ('早睡', 1), ('早起', 1), ('自律', 2), ('打勾', 1.5), ('打个勾', 1.5), ('不间断', 2),
            ('吃药', 2), ('戒烟', 2.5), ('戒糖', 2.5), ('戒', 1), ('有没有', 1), ('按时', 1), ('多少天了', 2),
            ('做到了?就?(打个?勾|打卡)', 2), ('连续(几|多少)天', 2),
            ('(这|那)?[几两三四五六]件事.{0,6}打卡', 2),
            # ticking each day off, a streak that breaks, the share of days done
            ('勾一下|勾一勾|勾上|画个?勾', 1.5), ('做没做|做了没', 1.5), ('断了就?(从头|重新)(算|开始|来)|断签', 2.5),
            ('完成率', 2),
        ),
        question='Do you want to track a daily habit and its streak?',
        question_zh="你是想每天打卡一个习惯，并看看连续了多少天吗？",
    ),
    Archetype(
        'caffeine_tracker',
        False,
        en=(
            ('caffeine', 3.5), ('coffees?', 2.5), ('espressos?', 2.5), ('lattes?', 2.5), ('cappuccinos?', 2.5),
            ('americanos?', 2.5), ('flat whites?|mochas?|cold brews?', 2.5), ('energy drinks?', 2.5),
            ('red ?bull', 2), ('matcha', 1), ('tea', 1), ('mg', 0.5), ('jitter(y|s)', 1), ("can'?t sleep", 0.5),
        ),
        zh=(
            ('咖啡因', 3.5), ('咖啡', 2.5), ('拿铁', 2.5), ('美式', 2), ('浓缩', 2), ('卡布奇诺', 2.5),
            ('能量饮料', 2.5), ('红牛', 2), ('喝.{0,8}(咖啡|美式|拿铁|奶茶|茶)', 1.5), ('奶茶', 1.5), ('茶', 1),
            ('提神', 1.5), ('睡不着', 0.5), ('失眠', 0.5),
        ),
        question="Do you want to log your coffee and caffeine and see today's total?",
        question_zh="你是想记录每杯咖啡和咖啡因，看看今天一共喝了多少吗？",
    ),
    Archetype(
        'focus_planner',
        False,
        en=(
            ('focus(ed|ing)?', 2), ('deep work', 3), ('time ?block(s|ing)?', 3), ('blocks?', 1.5),
            ('(block|carve) (out )?(time|hours?|\\d)', 2), ('plan (out )?my (week|days?)', 3),
            ('weekly (plan|planner|schedule|timetable)', 3), ('timetables?', 2.5), ('pomodoros?', 3.5),
            ('study (sessions?|schedule|plan|blocks?|time)', 2.5), ('schedule (my|a|the) (week|days?|study)', 2.5),
            ('productiv(e|ity)', 1.5), ('distractions?', 1), ('time management', 2.5), ('agenda', 1.5),
            ('calendar', 1), ('weekdays?', 0.5), ('hours? (per|a) week', 0.5), ('planner', 1.5),
            ('\\d+ ?min(ute)?s? (of )?(work|focus|study)', 2), ('break cycles?|work cycles?', 2), ('distracted', 1.5),
            # a length of work with breaks between: a focus plan however its pieces are called (sprints, chunks)
            ('\\d+[- ]?min(ute)?s?\\b.{0,40}\\bbreaks?\\b', 2.5),
            ('(work|focus|study) (sprints?|chunks?|intervals?)', 2),
        ),
        zh=(
            ('专注', 3), ('专心', 2), ('深度工作', 3), ('番茄钟', 3.5), ('时间块', 3), ('按块', 2.5),
            ('周计划', 3), ('本周计划', 3),
            ('一周计划', 3), ('下周', 0.5), ('安排一周', 3), ('学习计划', 2.5), ('学习时间', 2), ('时间安排', 2),
            ('时间表', 2.5), ('课表', 2), ('日程', 1.5), ('效率', 1.5), ('规划', 1), ('安排', 1), ('复习计划', 2.5),
            ('学习安排', 2.5), ('制定.{0,6}(计划|安排)', 2), ('备考', 1.5), ('考研', 1), ('时间分配', 2.5),
            ('几点做什么', 2.5), ('几点到几点', 2.5),
            ('时间段', 2), ('穿插休息|中间休息|休息一下', 1.5), ('一段一段', 2), ('每段', 1),
            ('\\d+分钟.{0,8}(歇|休息)', 2.5),  # a length of work with breaks between: 干25分钟歇5分钟
        ),
        question='Do you want to plan focus blocks across your week?',
        question_zh="你是想把一周的专注时间块排进计划吗？",
    ),
    Archetype(
        'expense_splitter',
        False,
        en=(
            ('split(ting|s)?', 2.5), ('who owes', 3), ('owes?|owed|owing', 2), ('who pays (whom|who)', 3),
            ('share (the )?(costs?|bills?|expenses?|rent)', 3), ('shared (costs?|expenses?|bills?|groceries)', 3),
            ('roommates?|flatmates?|housemates?', 1.5), ('(among|between) (friends|us|the group)', 1.5),
            ('group (trip|expenses?|costs?|dinner)', 3), ('splitwise', 3), ('go(ing)? dutch', 3),
            ('pay(ing)? (me |them |you )?back', 1.5), ('settle (up|debts?)', 3), ('ious?', 2.5), ('debts?', 1.5),
            ('chip in', 2), ('fair share', 2), ('reimburse', 2), ('paid for', 1.5), ('how much each', 1),
            ('we share', 1.5), ('who paid', 2.5), ('who should (pay|transfer|send)', 2.5),
            ('who (needs to|should|has to|must) (pay|give|send|transfer|pay back) (who|whom)', 3),
            ('different people paid', 2.5), ('in proportion to|proportional(ly)? to|pro rata', 2),
        ),
        zh=(
            ('分账', 3.5), ('AA', 3), ('AA制', 1.5), ('平摊', 3), ('均摊', 3), ('分摊', 3), ('谁欠谁', 3.5),
            ('欠', 1.5), ('室友', 1.5), ('聚餐', 1), ('凑钱', 2), ('垫付', 2.5), ('还钱', 1.5), ('结算', 1.5),
            ('该给', 1.5), ('给我多少', 1.5), ('平分', 1.5), ('分钱', 2.5), ('费用', 0.5),
            ('谁付的?钱', 2.5), ('谁先?垫', 2.5), ('(该|应该)(转|给)给?谁', 3), ('谁.{0,2}(转|给)给?谁', 3),
            ('钱.{0,6}(平分|分摊|AA|怎么分)', 2), ('借钱', 1.5), ('合租', 2.5), ('水电费', 1.5), ('怎么分', 2),
            ('凑份子', 2.5), ('(分|摊)(电费|水费|房租|网费|水电费?|燃气费|物业费)', 2.5),
        ),
        question='Do you want to split shared expenses and see who owes whom?',
        question_zh="你是想分摊共同支出，算出谁该给谁多少吗？",
    ),
    Archetype(
        'budget_tracker',
        False,
        en=(
            ('budget(s|ing)?', 3), ('spending', 2.5), ('expenses?', 2), ('spend', 1.5), ('spent', 1.5),
            ('money tracker', 3), ('track(ing)? (my )?money', 2.5), ('where (does )?(my|the) money go(es)?', 3),
            ('(monthly|weekly) (spend|limit)', 2), ('finances?|financial', 1.5), ('purchases?', 1),
            ('savings?|save money', 1), ('categor(y|ies)', 0.5), ('bills?', 0.5), ('blow (on|money)', 2),
            ('how much i (spend|spent)', 2.5), ('overspend(ing)?', 3), ('paycheck|payday|salary|income', 1.5),
            ('(run|running|ran) out of money', 2.5), ('broke', 1), ('limit', 1), ('cash ?flow', 2),
            (r'(under|below|within|no more than|less than) [$€£]?\d+k?( dollars| euros)? (a|per) (month|week)', 2),
            ('where (it|my money|my paycheck|the money) goes', 2.5), ('allowed myself', 2),
            ("(warn|warned|alert|alerted|notify|notified)( me)? when (i'?m|im|i am|i get) (close|near)", 2),
            ('set [$€£]?\\d+ for', 1.5),
            # what is left of a sum to spend, and money coming and going: a budget
            ('how much (is |i have )?left (of|from|out of) (my|the|our) [$€£]?\\d', 2.5),
            ('money in,? (and )?money out', 3),
        ),
        zh=(
            ('预算', 3), ('记账', 3.5), ('开销', 2.5), ('花销', 2.5), ('支出', 2.5), ('花了多少钱', 3), ('账本', 3),
            ('消费', 2), ('花钱', 2), ('开支', 2.5), ('省钱', 1.5), ('理财', 1.5), ('收支', 2.5), ('工资', 1.5),
            ('花哪', 2.5), ('超支', 3), ('生活费', 2.5), ('月光', 2), ('超没超', 1), ('钱', 0.5),
            ('还剩多少(钱)?(能|可以)花', 2.5), ('管住手', 2),  # what is left to spend, holding back spending
        ),
        question='Do you want to track your spending against a budget?',
        question_zh="你是想记录花销，看看预算还剩多少吗？",
    ),
    Archetype(
        'unit_converter',
        False,
        en=(
            ('convert(er|ing|s)?', 2.5), ('conversions?', 2.5), ('units?', 2),
            ('how many \\S+ (in|are in|is) an?', 2), ('metric', 1), ('imperial', 1), ('measurements?', 1),
            ('what is that in', 1.5), ('in (celsius|fahrenheit)', 2),
        ),
        zh=(
            ('换算', 3), ('转换', 2.5), ('单位', 2), ('转成', 2), ('换成', 2), ('等于多少', 2), ('是多少', 1),
            ('公制', 1), ('英制', 1),
        ),
        question='Do you want to convert between units (length, weight, temperature, volume)?',
        question_zh="你是想换算单位（长度、重量、温度、容量）吗？",
    ),
    Archetype(
        'tip_calculator',
        False,
        en=(
            ('tips?', 2.5), ('tipping', 3), ('tip and split', 1.5), ('gratuity', 3), ('service charge', 2),
            ('leave (a )?tip', 1), ('\\d+ ?(%|percent)', 1), ('bill', 1), ('check', 0.5),
            ('leave (a |an extra )?\\d+ ?(%|percent)', 2.5),  # a share of a bill left behind is a tip
            ('waiter|waitress|server', 1.5), ('how much each', 1),
        ),
        zh=(
            ('小费', 3.5), ('小费.{0,3}(计算|怎么算|多少)', 1.5), ('服务费', 2.5), ('打赏', 1.5), ('账单', 1),
            ('每人', 1), ('平分', 1),
            ('(给|多给)服务员', 2), ('按百分比', 1),
        ),
        question='Do you want to work out a tip and split a bill?',
        question_zh="你是想算小费并平摊账单吗？",
    ),
    Archetype(
        'bmi_calculator',
        False,
        en=(
            ('bmi', 3.5), ('body mass( index)?', 3.5), ('(over|under)weight', 3),
            ('healthy weight|ideal weight', 2.5), ('healthy (range|bmi)', 2), ('weight is', 1),
            ('height and weight|weight and height', 2), ('obes(e|ity)', 2), ('body fat', 1.5),
            ("(am i|i'?m) (too )?(fat|thin)", 2.5),
        ),
        zh=(
            ('BMI', 3.5), ('bmi', 3.5), ('体重指数', 3.5), ('身体质量指数', 3.5), ('超重', 2), ('肥胖', 2),
            ('胖不胖', 3), ('身高体重', 2.5), ('标准体重', 2.5), ('体重是否', 2), ('身高', 1.5), ('体重', 1.5),
            ('偏瘦', 2), ('偏胖', 2.5), ('太胖', 2), ('胖', 1), ('瘦', 1),
        ),
        question='Do you want to calculate your body mass index from height and weight?',
        question_zh="你是想根据身高体重算出身体质量指数（BMI）吗？",
    ),
    Archetype(
        'countdown',
        False,
        en=(
            ('count ?down', 3.5), ('days (until|till|left|to go|before|remaining)', 3),
            ('how (many|long) (days |sleeps )?(until|till|before)', 3), ('sleeps (until|till)', 3),
            ('(until|till) (my|the|our) \\S+', 1.5), ('deadline', 1.5), ('anniversary', 1), ('birthday', 1),
            ('wedding', 1), ('christmas|xmas|halloween|thanksgiving', 1), ('new year', 1), ('vacation|holiday', 0.5),
            ('due (on|date)', 1), ('count (the )?days', 2.5),
            ('how long (til|till|until|before)', 3),
        ),
        zh=(
            ('倒计时', 3.5), ('还有几天', 3), ('还剩几天', 3), ('还有多少天', 3), ('倒数', 2.5), ('纪念日', 1.5),
            ('距离', 1), ('离', 0.5), ('生日', 1), ('婚礼', 1), ('春节', 1), ('考试', 0.5), ('过年', 1), ('放假', 1),
            ('还有', 0.5),
        ),
        question='Do you want to count down the days to a date?',
        question_zh="你是想倒数距离某一天还有几天吗？",
    ),
    Archetype(
        'todo_list',
        False,
        en=(
            ('to-?dos?', 3), ('to do list', 3), ('tasks?', 2), ('checklists?', 3), ('chores?', 2),
            ('(things|stuff) ((i|we) (need|have) )?to do', 3), ('need to do', 1.5),
            ('errands?', 2), ('errands? to run', 1), ('jobs (around|at|for) (the )?(house|home|flat)', 2.5),
            ('jobs', 1), ('jot (down )?(tasks|things|stuff)', 2), ('(house|home)work list', 2), ('tasks for', 1),
            ('(tick|check|cross) (them |it |things )?off', 2), ('reminders?', 1), ('get(ting)? things done', 2),
            ('(grocery|shopping|packing) list', 2.5), ('list', 0.5), ('forget(ting)? (stuff|things)', 1),
        ),
        zh=(
            ('待办', 3.5), ('任务', 2), ('清单', 1.5), ('要做的事', 3), ('要办的事', 3), ('事项', 2), ('家务', 2),
            ('购物清单', 2.5), ('备忘', 1.5), ('提醒', 1), ('勾掉', 2), ('列出来', 1.5),
            ('紧急程度|轻重缓急', 2), ('划掉', 2), ('杂事|琐事', 1.5), ('做完的', 1),
        ),
        question='Do you want a to-do list you can add tasks to and tick off?',
        question_zh="你是想要一个能添加任务、勾选完成的待办清单吗？",
    ),
    Archetype(
        'reading_list',
        False,
        en=(
            ('reading list', 3.5), ('books', 3), ('book list', 3), ('novels?', 2.5), ('want to read', 2.5),
            ('to[- ]read', 2), ("(i'?ve|i have) read", 2), ('(what|which) (book )?(should|to) (i )?read', 3),
            ('read next', 2.5), ('read', 1), ('borrowed', 1), ('goodreads', 3), ('authors?', 1.5), ('library', 1),
            ('reading', 1), ('bookshelf|bookcase', 2.5), ('(audiobooks?|e-?books?)', 2), ('finished (reading)?', 0.5),
        ),
        zh=(
            ('书单', 3.5), ('读书清单', 3.5), ('阅读清单', 3.5), ('想读', 2.5), ('要读的书', 3), ('读过', 2.5),
            ('看过的书', 3), ('书', 1.5), ('小说', 2), ('书架', 2.5), ('作者', 1), ('读了', 1.5), ('本书', 2),
            ('阅读', 1),
        ),
        question='Do you want a reading list of books to read and books you have read?',
        question_zh="你是想要一个记录想读和读过的书的书单吗？",
    ),
    Archetype(
        'flashcards',
        False,
        en=(
            ('flash ?cards?', 3.5), ('cards', 2), ('vocab(ulary)?', 2.5), ('memori[sz](e|ing)', 2),
            ('spaced repetition', 3), ('quiz (me|myself)', 2.5), ('anki', 3), ('words to learn', 2.5), ('drill', 2),
            ('(learn|learning|study|studying|practi[sc]e|revise|review) (\\S+ )?'
             '(words|kanji|characters|terms|phrases)', 2.5),
            ('new words', 2), ('definitions?', 1), ('exam prep|revision', 1),
            ('quiz me', 2),
        ),
        zh=(
            ('单词卡', 3.5), ('闪卡', 3.5), ('记单词', 3), ('背单词', 3.5), ('单词', 2), ('词汇', 2.5), ('卡片', 2),
            ('复习', 1.5), ('抽认卡', 3.5), ('背诵', 2), ('生词', 2.5), ('记忆卡', 3), ('背', 1),
            ('一问一答', 3), ('考我', 2), ('知识点', 1.5),
        ),
        question='Do you want flashcards to learn and review words or facts?',
        question_zh="你是想用记忆卡片学习和复习单词或知识点吗？",
    ),
    Archetype(
        'water_tracker',
        False,
        en=(
            ('water', 2.5), ('hydrat(e|ed|ion|ing)', 3), ('h2o', 3), ('water intake', 1),
            ('drink (more |enough )?water', 1), ('drink enough', 2), ('fluids?', 2.5), ('thirst(y)?', 1),
            ('bottles?', 1),
            ('(stay|staying|keep) hydrated|dehydrat(ed|ion)', 3), ('glass(es)?( of water)?', 1.5),
            ('\\d+(\\.\\d+)? ?(l|litres?|liters?) a day', 2), ('forget(ting)? to drink', 2),
        ),
        zh=(
            ('喝水', 3), ('喝.{0,8}水', 2), ('饮水', 3), ('水量', 2.5), ('补水', 3), ('八杯水', 3), ('喝了多少水', 3),
            ('水', 1), ('毫升', 1),
        ),
        question='Do you want to log how much water you drink each day?',
        question_zh="你是想记录每天喝了多少水吗？",
    ),
    Archetype(
        'mood_journal',
        False,
        en=(
            ('moods?', 3), ('feelings?', 2.5), ('emotions?|emotional', 2.5), ('journal(ing)?', 2), ('diary', 2),
            ('how i feel', 3), ("how i('m| am) feeling", 3), ('mental health|well-?being', 2.5), ('gratitude', 2),
            ('anxi(ety|ous)', 2), ('stress(ed)?', 1.5), ('how (stressed|happy|sad|anxious|tired)', 2),
            ('happ(y|iness)', 1), ('sad(ness)?', 1), ('how my day went', 2),
            ('rate my day', 3), ('how (was )?my day (was|went)', 2),
        ),
        zh=(
            ('心情', 3), ('情绪', 3), ('日记', 2), ('[写记][一几点篇些下个句]{0,4}日记|每[天日]的?日记', 2.5),
            ('感受', 2.5), ('开心', 1.5), ('开不开心', 2.5),
            ('高兴', 1.5), ('焦虑', 2), ('压力', 1), ('感恩', 2), ('心理', 1.5), ('难过', 1.5),
        ),
        question='Do you want a journal to note your mood each day?',
        question_zh="你是想每天记下心情，写一本心情日记吗？",
    ),
    Archetype(
        'restaurant_picker',
        False,
        en=(
            ('restaurants?', 3),
            ('where (should we|should i|to|do we|shall we) (eat|go for (dinner|lunch|brunch))', 3),
            ('what (should i|to|shall we|should we) eat', 3),
            ('(lunch|dinner|brunch) (spots?|places?|options?|ideas?)', 3), ('places? to eat', 3),
            ('eat(ing)? out', 2), ('cuisines?', 2), ('food places?', 3), ('cafes?', 1),
            ('takeaway|takeout|take-out', 1.5), ('pick (a |one )?(place|spot)', 1.5),
            ('diners?|bistros?|eateries|eatery', 2), ('dinner|lunch', 1), ('brunch', 2), ('places to try', 2.5),
            ('decide where', 1.5), ('pick one for', 1), ('foodie|food', 1),
            ('pick (a|one) (restaurant|place to eat)', 2),
        ),
        zh=(
            ('餐厅', 3), ('饭店', 3), ('吃什么', 3), ('去哪吃', 3.5), ('选餐厅', 3.5), ('馆子', 3), ('外卖', 1.5),
            ('午饭', 1.5), ('晚饭', 1.5), ('美食', 2), ('小吃', 1.5), ('吃饭', 1), ('火锅店', 2.5), ('日料店', 2.5),
            ('店', 0.5), ('(午餐|晚餐|午饭|晚饭|吃饭|聚餐).{0,4}(地方|去处)', 2.5), ('午餐', 1.5), ('晚餐', 1.5),
            ('吃啥', 2), ('随机抽一家|随机选一家|抽一家', 3), ('挑一家|挑一个', 1.5), ('人均', 1.5), ('选择困难', 1),
        ),
        question='Do you want a list of restaurants and a picker that chooses one for you?',
        question_zh="你是想收藏一些餐厅，再让工具帮你挑一家吗？",
    ),
)

# Requests for actions no generated tool performs. Strong phrases only: a cue here must not also describe a tool.
OUT_OF_SCOPE = Archetype(
    'out_of_scope',
    False,
    en=(
        ("(?<!\\bto )(?<!\\bi )(?<!\\bi'll )(?<!\\bwe )write (me )?(an? |my )?"  # not the person's own writing
         '(essay|thesis|poem|story|novel|song|letter|email|cover letter|report|paper|code|program)', 4),
        ('(book|reserve) (me )?(an? |the )?(flight|hotel|ticket|train|table|room|taxi|cab|appointment)', 4),
        ('(order|buy|purchase) (me )?(some |a |an )?\\S+ (online|for me)', 3),
        ('order (me )?(a |some )?(pizza|food|uber)', 4), ('^(please )?(send|text|email|call|message|phone) ', 3),
        ('translate', 4), ('hack', 4), ('(tell|make) me a joke', 4), ('meaning of life', 4),
        ('(who|what) (is|was|are) (the )?(president|capital)', 4), ('summari[sz]e', 3), ('do my homework', 4),
        # homework answered by toolgen, not a child's homework to log ("log my son's homework and whether it's done")
        ("(solve|(what'?s|what is|give me|tell me) the answers? (to|for|of)) .{0,40}"
         '(homework|equations?|problems?|worksheet|quiz|exercises?)', 4),
        ('solve\\b.{0,30}\\d\\s*=', 4),  # an equation to solve ("solve 2x - 5 = 11 for me")
        ('(give me|predict|pick|generate|recommend|what are) .{0,20}(winning |next )?(lottery|lotto|powerball) numbers',
         4),
        ('(pay|transfer) (my )?\\$?\\d*', 2.5), ('stock (price|tips?)', 3), ('invest(ing|ment)?', 2),
        ('(fix|repair) my', 3), ('sing', 2), ('draw (me )?a', 3), ('passport|visa', 2),
        ('^(please )?(can you |could you )?renew ', 3), ('renew (my |the |our )?\\S+( \\S+)? for (me|us)', 4),
        ('play (some )?(music|songs?|a song)', 4), ('what time is it', 4), ('(call|get) (me )?a (taxi|cab|uber)', 4),
        ('explain', 2.5), ('news', 2), ('who won', 4), ('(set|start) (an |a )?(alarm|timer)', 4),
        ('recommend (a |some )?(movie|film|song|show)', 4),
        ('(find|search) (me )?(a |some )?(cheap )?(flight|hotel)', 4), ("what'?s \\d+ ?[-+*/x] ?\\d+", 4),
        # company asked of toolgen itself: a conversation, not a tool
        ('(chat|talk) (with|to) me|keep me company|be my (friend|girlfriend|boyfriend)', 4),
    ),
    zh=(
        # writing asked of toolgen ("帮我写论文"), not writing the person plans to do ("上午写代码")
        ('(帮我|给我|替我|请你?|你能|能不能|可以|代)(帮我)?写(一篇|一首|一封|个|篇|首|份)?.{0,8}'
         '(论文|文章|诗|小说|代码|邮件|作文)', 4),
        ('^写(一篇|一首|一封|个)?.{0,8}(论文|文章|诗|小说|作文)(?!.{0,4}(时|的时候|老是|总是|分心|效率|进度))', 4),
        ('订机票', 4), ('订酒店', 4), ('订票', 4), ('买票', 4), ('订餐', 3), ('点外卖', 4),
        ('打电话', 4), ('发短信', 4), ('翻译', 4), ('讲个笑话', 4), ('总结', 3), ('炒股', 4), ('股票', 3),
        ('黑客', 4), ('帮我买', 4), ('讲讲', 3), ('推荐.{0,3}(电影|歌|电视剧)', 4),
        ('闹钟', 4), ('预约', 3), ('求职信', 4), ('新闻', 3), ('放首歌', 4), ('放音乐', 4), ('叫车', 4), ('打车', 4),
        ('几点了', 4), ('护照', 3), ('(陪|和|跟)我(聊|说说话|说会|谈谈)', 4),
        # homework done for the person, not a child's homework to log ("孩子每天写作业 哪科")
        ('(帮我|替我|给我|帮忙|你来|代)(写|做|完成|抄)?.{0,4}作业|作业(的)?答案', 3),
        # numbers to bet on, asked of toolgen (a log of tickets bought is a tool)
        ('(推荐|预测|给我|来)(几[个组注])?.{0,6}(双色球|大乐透|彩票|福彩|体彩)的?号码|推荐几[注组]'
         '|(双色球|大乐透|彩票)(下期)?.{0,4}号码.{0,3}(推荐|预测|是啥|是什么)', 4),
    ),
    question="",
)
# fmt: on

BY_NAME = {a.name: a for a in ARCHETYPES}
