"""Whose name or birthday a statement gives: one per person, never one per user. Pure."""

from datetime import datetime

import pytest

from memchat.memory.persons import person_of, restates, same_person


@pytest.mark.parametrize(("text", "person"), [
    ("My birthday is 3 May.", "user"),
    ("I was born in Tartu.", "user"),
    ("我生日是3月5号。", "user"),
    ("My husband Pieter's birthday is 9 October.", "pieter"),
    ("Bram's birthday is next Tuesday.", "bram"),
    ("My mum's birthday is in June.", "mother"),
    ("我老婆下周过生日。", "wife"),
    ("下个月乐乐生日。", None),
])
def test_whose_statement_it_is(text, person):
    assert person_of(text) == person


def test_two_peoples_birthdays_do_not_replace_each_other():
    assert not same_person("我媳妇5月18号生日。", "下个月豆豆生日。")
    assert not same_person("My wife's birthday is 18 May.", "Our son Bram's birthday is 2 June.")
    assert not same_person("Bram's birthday is 2 June.", "His birthday is 3 June."), "unknown: nothing replaced"
    assert same_person("My birthday is 3 May.", "Actually my birthday is 4 May.")
    assert same_person("Bram's birthday is 2 June.", "Sorry, Bram's birthday is 3 June.")


def test_the_same_day_again_is_a_restatement_not_a_change():
    may_18 = datetime(2026, 5, 18, 12).timestamp()
    assert restates(datetime(2025, 5, 18, 9).timestamp(), may_18, "birthday"), "any year: a birthday is a day"
    assert not restates(datetime(2025, 5, 19).timestamp(), may_18, "birthday")
    assert not restates(None, may_18, "birthday")
    assert not restates(may_18, may_18, "name")


def test_a_holiday_is_no_restatement_of_a_birthday():
    """"Christmas Day" after "25 March" corrects it; "the 25th" only restates it."""
    from datetime import datetime

    from memchat.memory.persons import restates
    march, christmas = datetime(2026, 3, 25).timestamp(), datetime(2026, 12, 25).timestamp()
    assert restates(march, christmas, "birthday", "My birthday's the 25th.")
    assert not restates(march, christmas, "birthday", "My birthday is on Christmas Day actually.")
