"""Which organisation a work statement names, and when two name different ones. Pure."""

import pytest

from memchat.memory.workplace import another_workplace, workplace_of


@pytest.mark.parametrize(("text", "organisation"), [
    ("The user works as a welder for Clyde Steelworks.", "Clyde Steelworks"),
    ("The user works at Bayview Dental, mostly kids.", "Bayview Dental"),
    ("Northwind offered the user the job on Monday.", "Northwind"),
    ("The user got a job offer from Kestrel & Sons.", "Kestrel & Sons"),
    ("The user accepted the Harbour Trust offer.", "Harbour Trust"),
    ("The user joined the Royal Bank of Scotland in May.", "Royal Bank of Scotland"),
    ("用户在蓝鲸科技上班。", "蓝鲸科技"),
    ("The user is a nurse in Leeds.", None),
    ("The user works nights at the hospital.", None),
    ("用户在家工作。", None),
    ("在一家面馆当厨师。", None),
])
def test_the_organisation_a_statement_names(text, organisation):
    assert workplace_of(text) == organisation


def test_two_statements_name_another_workplace_only_when_the_names_differ():
    assert another_workplace("The user works as a welder for Clyde Steelworks.", "Northwind offered the user the job.")
    assert not another_workplace("The user is a clerk at Bayview Dental Group.", "The user left Bayview Dental.")
    assert not another_workplace("The user is a nurse in Leeds.", "Northwind offered the user the job."), "one is unknown"


def test_an_organisation_named_in_lower_case_chat_is_found():
    """Chat in lower case named no organisation: "…at the first bus depot", then "scotrail offered me the job" were
    not two workplaces, so the old job stayed the answer to "Who do I work for?"."""
    assert workplace_of("i'm a porter at the royal infirmary hospital") == "royal infirmary hospital"
    assert workplace_of("tesco offered me the night manager job") == "tesco"
    assert workplace_of("i work at home mostly") is None
    assert workplace_of("They offered me the job on the spot") is None  # nobody named
    assert another_workplace("The user is a porter at the royal infirmary hospital.",
                             "Tesco offered the user the night manager job.")
