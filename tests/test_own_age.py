"""memory.own_age: the user's age said inside an introduction is kept as the user's age."""

from __future__ import annotations

import pytest
from helpers import fake_services

from memchat.memory.own_age import age_in_introduction


@pytest.mark.parametrize(("sentence", "age"), [
    ("I'm Tomasz, 29, Polish but living in Glasgow like 6 years now", 29),
    ("i'm Rosalind, Ros to basically everyone except my mum, 41, and i'm a pharmacist", 41),
    ("Im Des, 59, and I teach geography at St. Enda's College.", 59),
    ("I'm Lotte, 27, dutch, living in Kralingen.", 27),
    ("I'm a 29-year-old nurse from Leeds.", 29),
    ("I'm 34 years old and tired of my commute.", 34),
    ("I'm 52, and I've just been made redundant.", 52),
    ("你好呀 我叫美玲，今年34，在杭州拱墅区一个小学当语文老师", 34),
    ("我是李华，二十八岁，在银行上班", 28),
    ("我今年45了，腰不行了", 45),
    # someone else's age, or no age at all
    ("My mum is 84 and lives alone.", None),
    ("我妈今年84了", None),
    ("Tom, 34, my cousin, is visiting.", None),
    ("I'm on floor 7, 2 doors down.", None),
    ("I'm Kai, 7.", None),
    ("I'm Sam, 5 minutes away.", None),
    ("We paid 45, which was fine.", None),
    ("我叫小王，30个学生都归我管", None),
])
def test_an_age_said_in_an_introduction(sentence, age):
    assert age_in_introduction(sentence) == age


def _ages(services):
    return [m.content for m in services.memories.list_items() if m.attribute == "age"]


def test_the_age_of_an_introduction_is_a_memory_of_its_own_and_a_later_one_replaces_it(tmp_path):
    services = fake_services(tmp_path)
    services.writer.process("Hi! I'm Dougal, 47, I live in Portree on Skye.", session_id=None, message_id=None, now=1000.0)
    assert _ages(services) == ["The user is 47."]
    assert any(m.attribute == "name" for m in services.memories.list_items())  # the name is still kept
    services.writer.process("I just turned 48 today.", session_id=None, message_id=None, now=2000.0)
    assert len(_ages(services)) == 1 and "48" in _ages(services)[0]
    services.writer.process("My mum is 84 and lives alone in Oban.", session_id=None, message_id=None, now=3000.0)
    assert len(_ages(services)) == 1 and "48" in _ages(services)[0]


def test_a_chinese_introduction_keeps_the_age_in_chinese(tmp_path):
    services = fake_services(tmp_path)
    services.writer.process("你好呀 我叫美玲，今年34，在杭州当语文老师。", session_id=None, message_id=None, now=1000.0)
    assert _ages(services) == ["用户今年34岁。"]
