"""Statements of who someone is, which a request to forget "that thing about my sister" keeps (memory/profile.py)."""

import pytest

from memchat.memory.profile import states_who


@pytest.mark.parametrize("text", [
    "My daughter Ella is 14 and loves netball.",
    "My sister Anna is a nurse and works nights.",
    "My brother Tom works at Tesco.",
    "Ella is my best friend from uni.",
    "She's a 14-year-old.",
    "My sister's birthday is 3 May.",
    "The user's sister Anna lives in Leeds.",
    "My wife Sara is a lawyer.",
    "我女儿叫小雨，今年上初二。",
    "我老公叫大伟，在银行上班。",
    "我爸叫老王，六十岁了。",
    "用户老婆叫小丽，是护士。",
    "The user's daughter is Ella.", "My brother's 30.", "My dad's from Poland.", "My son's at uni in Leeds.", "My mum's name is Jane.",
])
def test_who_someone_is(text):
    assert states_who(text)


@pytest.mark.parametrize("text", [
    "My sister is pregnant.",
    "My brother owes the bank thirty grand.",
    "My son is being bullied at school.",
    "My sister Anna lives in Leeds and she's pregnant.",
    "My sister works at the clinic but hates it.",
    "My sister lives with her boyfriend who hits her.",
    "My brother is an alcoholic.",
    "My daughter Ella is 14. She failed her exams.",  # two sentences: judged one by one
    "I live in Porto.",  # the user, not someone they told of
    "我儿子在学校被欺负了。",
    "我妹妹喜欢女生。",
    "我女儿高考没考好。",
    "我妹妹是个病人。",
    # found in review: stories in a profile's shape
    "My sister is 3 months in rehab.", "My brother is doing time in Wandsworth.", "My son is from my affair with Tom.",
    "My mum is living with cancer.", "My boyfriend is married.", "My uncle is my father.", "My dad is an unemployed teacher.",
    "My sister works at a strip club.", "My dad moved to a hospice.", "My brother turns 18 in prison.",
    "My sister was born in prison.", "My daughter is 15 and he is 40.", "My husband goes cycling with his mistress.",
    "我爸住院了", "我女儿叫人欺负了", "我哥是吸毒人员", "我哥在戒毒所上班", "我爸叫车撞了", "我姐是离过婚的人", "我哥是黑社会老板",
    "我女儿十五岁，男朋友三十岁",
])
def test_anything_else_is_not(text):
    assert not states_who(text)
