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
])
def test_anything_else_is_not(text):
    assert not states_who(text)
