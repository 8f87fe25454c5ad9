"""The breadth set as a regression set: each part's requests that get a fitting tool offline, never fewer.

Each part was read once before any tuning on it (docs/knowledge.md, README "What a person meets"); the floors are
what the offline reader gives now. A change that loses a fit somewhere fails here, so a gain on one part cannot hide
a loss on another. `toolgen eval --breadth --part PART --errors` lists a part's misses.
"""

from __future__ import annotations

import pytest

from toolgen.intent.build_actions import BLIND
from toolgen.planner import breadth

FLOORS = {
    "dev": 110, "holdout": 98, "dev2": 139, "dev3": 101, "dev4": 114, "fresh": 139, "fresh2": 141, "fresh3": 138,
    "fresh4": 142, "fresh5": 132, "fresh6": 135, "fresh7": 127, "model1": 132, "blind2": 141, "blind3": 144,
    "blind4": 128, "blind5": 128, "blind6": 135, "blind7": 129, "blind8": 136,
    "blind9": 129, "blind10": 126, "blind11": 122, "blind12": 124, "blind13": 116,
    "blind14": 111, "blind15": 113, "blind16": 122,
}  # fmt: skip
# dev2 was 140 before the knowledge base grew from 462 to 2,049 subjects and the learned choice became complement naive
# Bayes (2026-12-06): one request, a gpa calculator over classes with credit hours, is now read as the percentage-to-gpa
# converter the model is surer of; the same change gained 10 elsewhere (docs/knowledge.md, "Choosing a subject").
# blind4 was written after that change and read once (116, its first reading); blind5 was written after the next
# (how often a task recurs read as spans, headings' words, labels as said), read once (111), then read 115 after
# things a schedule lists became its rows and reminding someone else became a message. blind6 was written after
# all of it and read once (126, its first reading); 127 since a log of the fees paid is no payment, 129 since a named
# kind named only by a subject's fields is that subject (baker's percentage) and a Chinese run may be joined by +.
# blind7 was written after those and read once (116, its first reading); 119 since a Chinese question is named by the
# noun it ends in ("穿的哪双鞋": shoes) and the weather among the things a log records is its field, not a forecast;
# 121 since a forecast asked over weeks is read day by day and a subject's Chinese word is not read where its last
# character begins a longer word (孩子的课 of 孩子的课外书); 122 (blind6 130) since homework answered by toolgen is
# refused in English as in Chinese ("what's the answer to #4 on my chem homework"); 124 since an English list of
# attributes may stand as a sentence of its own, its items' bracketed examples are no items and "# of" counts;
# 125 (dev3 101) since a stay some were at for part of ("2 of them only came for 2 of the 4 nights") splits by days;
# 127 (fresh6 133) since paying a loan off early is read by the loan prepayment's patterns (提前还十万划不划算).
# 2026-12-07: blind4 126, blind5 118, blind6 132, blind7 128 since a Chinese row a tool starts with is judged in
# English as its labels are (床单两周换一次), air quality asked over days reads each day's worst hour, a subject someone
# is said to have ("my mum has asthma") yields to the one asked about, and two named kinds in contention with the
# rows' fields said build the likelier (shared flat expenses: date, amount, who paid, what for).
# blind8 was written after those and read once (114, its first reading); 122 (model1 129, fresh2 139) since an action
# asked in a clause of its own beside a tool is the action ("pay the bill ... and then mark it paid in my bills list"),
# 把…发朋友圈 is posting, an equation to solve is homework, "drive me mad" no navigation, which or best day is read
# day by day, a pollen or air forecast reads each day's worst hour, and overnight lows are a frost forecast; 123 since
# chores asked how often ("多久洗一次") are a schedule's rows; 127 (blind2 138, fresh7 120) since a colloquial Chinese
# question is named by the question glossary (多大 age, 干啥的 job, 最后净赚多少 net profit, 充了几度 kwh charged);
# 129 since a heading's word counts in a spaced list after the tool's name (厂商) and the days to come are looked up,
# not logged (回南天 ... 未来几天露点和湿度看一下: the daily forecast of what current weather shows). blind5 120 and
# blind6 133 since forgetting when something was last done asks for a schedule and words after a last comma may
# list attributes ("what sold at my market stall each saturday, item qty price").
# blind9 was written after those and read once (110, its first reading; main before this session read 110 too); 120
# since an action told outright at the start of a sentence, or in a clause of its own after a comma, is the action
# though a tool's word is in what it acts on ("email my landlord the list of ..."), adding to a cart is buying, a
# diagnosis or a prescription asked is medical, lottery numbers to bet on are no tool, and the weather among what a log
# writes down asks nothing of the days to come ("keep count of the eggs ... curious if the cold weather ..."); 121 since
# a question about each row counts in a spaced list ("衣柜盘点 按类别 颜色 季节 还有上次穿是啥时候").
# 2026-12-07: blind9 126, blind8 133 (and dev2 140, fresh 139, fresh6 134, fresh7 121, blind3 139, blind4
# 127, blind5 122, blind6 134) since a tagger learnt from requests written for training reads the attributes a request
# names however it sets them out ("fuel log ... odometer litres price", "记品牌 宽度 图案"; intent/spans.py).
# blind10 was written after the tagger began and read once (117, its first reading; main before it read 115). Its
# near rows dropped from the training data and the models refit, fresh 138, fresh6 133, blind6 133, blind8 132 (a
# schedule of chores refused, a study plan's review days, a log's "minutes read each night"), blind5 123, fresh7 122.
# blind10 120, blind9 127, blind4 128 since a question about one thing is named by it (有没有痰 phlegm) and the question
# glossary's second batch (1,372 phrases; its examples were blind10's misses, so blind10's gain is tuning); dev2 139
# since a Chinese phrase the tagger reads and no glossary names is not made a field ("目标十万声" was one, measure_5);
# the tagger refit on the glossary's phrases, blind5 122 and blind9 125, fresh 139, fresh5 132, fresh6 134, blind8 133;
# blind3 140, blind8 134 since an attribute the tagger reads with its unit is no value ("amount in yen", "age in
# months"); fresh5 131, fresh7 123 since the tagger is trained on phrases found on words' bounds (no "og" in "log").
# blind11 was written after a Chinese question began to be named past its framing (一根成本多少 cost) and read once
# (113, its first reading; main before it read 113 too). Its near rows dropped and the models refit: blind4 127,
# blind8 133, fresh7 121 (a board game lent out, tomatoes' fruit counted: the tagger read them no more). 115 since a
# question is named after a time of day or any word before it (半夜醒了几次 wakeups, 现在状态咋样 condition, 能不能带狗
# dog; its misses showed them, so blind11's gain is tuning), blind10 122, blind9 126; the tagger now the mean of eight
# perceptrons, each over orders of its own (a refit that drops 1% of its rows changes what it reads of 10% of the
# breadth requests, against 25% for one): blind9 126, blind5 122, fresh7 121. blind4 128 since a yes-or-no question
# is named by the word it asks about before the verb alone (收没收款 payment received, 发没发烧 a fever, not "sent").
# fresh7 122 when the tagger left out the rows near the Chinese column names' set (tests/data/names/).
# A third batch of the question glossary (3,687 phrases by grammatical form; its brief's examples were
# blind11's misses, 几饼 几等奖 哭闹了多久, so blind11's gain is tuning): blind11 117 (便便正不正常, 几等奖),
# blind4 129, blind8 134; the tagger refit on its phrases, blind9 124 and fresh7 121 (a membership list's
# 视频会员, a board game lent out). blind11 118, blind10 123, blind3 141, blind5 124, blind6 134, blind7 129, fresh7 122
# since a request the reader would ask back on gets the subject the learned model is sure of where the request says a
# word of its names (今天金价多少一克 the gold price; read.learned_subject). A review's mends: blind11 117 and
# blind4 128 (a yes-or-no question named by its one-character verb where the question glossary has it not, 收没收款
# received; a question after two words is no name, 拉的便便正不正常).
# blind11 121, blind10 124, blind9 125, blind5 126, blind3 142 since a question the question glossary knows is named
# as it names it, its type, unit and options as the reader reads them (最后赚了多少 earnings, 默写错了几个 mistakes,
# 退货几单 returns; fresh7's 摘了几个 is now "harvested", no count, and a class's 一周几次 is read).
# blind12 was written by a helper from the brief alone while that step was made, and read once after it: 115, its
# first reading (main before that day's work read 113). Its near rows dropped (7 action corpus rows, 1 paraphrase,
# the tagger's) and the models refit: blind11 120 (a screenshot posted to one's feed is read as a budget once more),
# blind9 125 as before (a river table's resin lost its sizes, a schedule of bedding chores found), fresh7 123.
# blind12 119 after reading its misses (tuning): how much of a verb is an amount (换了多少), what someone is called
# names them (理发师叫啥 the barber), and a label that is a question word ("How" a client was met) answers no "how
# long" or "which weekends". blind10 125 and blind8 135 since a stay some were at for part of is split by the nights
# each was there, named so, and "2 of the 4 nights" is no total to split. blind12 120, blind5 127, blind6 135 since
# "pace calc" is a calculator (calc homework stays calculus) and a pace calculator's time is labelled as a finish time.
# blind2 139, blind8 136, blind10 126, blind11 121, blind12 121 since a bill whose drinks only the drinkers pay is a
# subject of the knowledge base, part of the expense splitter (five blind writers asked for it; read from their misses).
# A sixth action corpus (actions on one's own records and for others, and their tool twins): blind10 127 and blind11
# 122 (an automatic weather message to one's mother, a budget screenshot posted to one's feed refused), blind6 134 (a
# function's minimum asked as homework is asked back, at 0.852 against the Chinese threshold of 0.86).
# blind13 was written by a helper from the brief alone after all of that, and read once: 111, its first reading (main
# before that day's work read 111 too, request by request the same). Its near rows dropped (8 action corpus rows, 16
# paraphrases, the tagger's) and the models refit: blind6 135 (the homework refused again), blind9 126, blind5 126 (a
# market stall's sales read as a message to send); the tagger the mean of sixteen perceptrons since (the refit had
# lost a boat engine log's fields again).
# A review's mends: blind12 120 (how much of a verb is no amount of its own: 换了多少 beside the tank's water-change
# field was a second field for one figure), blind10 126 (the drinks split is named by its splitting, 酒钱单算, not by
# drinkers among a group), dev3 100 (a haircut's listed barber is a column, no chore; the tool has no field of it).
# The drinks split's names that were the blind requests' own words (酒钱只算, 酒钱不该, 酒钱要单独, 不用摊酒水) are
# gone, a rule written for one sentence each: blind2 138, blind8 135, blind11 121, blind12 119; the subject stays,
# named by its splitting in words of its own.
# A rota works out whose turn it is by the date, its people a setting, and things kept for a household say whose
# (2026-12-07): blind9 128, blind11 122, blind12 121, blind13 117 (eight rotas across the parts had no one in them and
# no week; four family document lists had no person), model1 130, fresh 140, fresh2 141, fresh6 135, fresh7 124,
# blind2 139; the judge reads a setting's words as it reads a seeded row's (a rota's "Kid 1, Kid 2, Kid 3").
# blind14 was written by a helper from the brief alone while that was made, and read once after: 104, its first
# reading (main before that day's work read 102: the two rotas it has).
# Its near rows dropped (9 action corpus rows) and the models refit: blind9 127 (a bedding and curtains schedule doubted
# as out of scope, a podcast guest list's contact lost), blind10 125 (subscriptions to cancel refused as a cancel).
# From blind14's misses: a measure word asked alone says what it counts (读的哪本: a book; blind14 105, blind3) and
# the weather of one place is its forecast, not a ranking of cities (blind3 144, fresh5 132, fresh7 125).
# A subject kept as a list or schedule asked as a row each time is a dated log of its fields: blind14 106, blind2 140,
# blind9 128, dev3 101 (a sourdough feeding log, each client meeting, a fuel log, each time a cat is dewormed).
# A medicine's dose by body weight is a calculator of the knowledge base (four blind writers asked for one), and mg and
# ml are units a number is read in: blind12 122, blind14 107, fresh7 126.
# A list kind asked how many each day is a log of the counts (blind14 108, fresh4 142, fresh7 127, model1 131), and
# the pollen a lookup shows is labelled a count, as it is (blind13 118, blind14 109, blind2 142).
# A figure named that the lookup's API lacks is read from another API besides (blind5 127 a surf check's wind, blind9
# 129 the temperature beside the pollen count).
# "How many times I woke up" names its count by the verb (blind12 123, blind14 110).
# A schedule's subject written down each time is its own log, no other log's fields besides (a sourdough starter's
# feeding log had a baby's feeds): blind9 128 (a motorbike's fuel log had its litres from the fuel log merged in).
# blind15 was written by a helper from the brief alone during that day's work and read once after all of it: 110, its
# first reading (main before the day's work read 108). Its near rows dropped (7 action corpus rows, 4 paraphrases) and
# the models refit: blind10 126, blind9 130 (a bedding schedule, subscriptions, a podcast guest list back; a camper
# battery's capacity read as a run log), fresh7 126 (a board game list's lending lost to the tagger's refit).
# blind16 was written by a helper from the brief alone at the start of the evening of 2026-12-07 and read once after
# that evening's work landed: 121, its first reading (main before that work read 121 too); 122 since (tuning, from
# its misses: colloquial air quality, a staff rota by shifts). Its near rows dropped (2 action corpus rows, 1
# paraphrase) and the models refit: blind10 126 (a subscriptions list refused as cancelling, another gained),
# blind4 128 (a chat asked back once "wanna" reads "want to", a request gained).
# A review's mends: a travel document's holder already says whose it is (no person besides: blind13 116, blind2 141,
# blind9 129, fresh 139, the five family document lists that fit by the second field), and the judge no longer reads a
# setting's values (a rota's placeholder people, "Kid 1", are the tool's guess, not a field: blind11 121).


@pytest.mark.parametrize("part", sorted(FLOORS))
def test_no_part_of_the_breadth_set_loses_a_fit(part: str) -> None:
    report = breadth.evaluate(part)
    misses = [f"{o.id} {o.result} {o.text[:60]}" for o in report.outcomes if o.result != "fits"]
    shown = len(misses) if part in BLIND else misses  # a blind part's misses are not read by accident
    assert report.counts()["fits"] >= FLOORS[part], shown
