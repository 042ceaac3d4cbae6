"""Suggestions by edit distance: a plausible typo gets its name, a word that
merely shares letters gets nothing."""
import pytest
from hypothesis import assume, given, strategies as hs

from pbem.kit.names import distance, key, nearest, tolerance


@pytest.mark.parametrize("a,b,d", [("france", "france", 0), ("frnce", "france", 1), ("germnay", "germany", 1),
                                   ("marroco", "marocco", 2), ("", "abc", 3), ("ab", "ba", 1)])
def test_distance_counts_inserts_deletes_replacements_and_swaps(a, b, d):
    assert distance(a, b) == d == distance(b, a)


@given(hs.text(alphabet="abcd", max_size=9), hs.text(alphabet="abcd", max_size=9), hs.integers(0, 6))
def test_a_distance_within_a_limit_is_exact_up_to_it_and_above_it_beyond(a, b, limit):
    d, bounded = distance(a, b), distance(a, b, limit)
    assert bounded == d if d <= limit else bounded > limit


@pytest.mark.parametrize("typo,names,found", [
    ("Frnce", ["France", "Britain"], "France"),
    ("Orange Rivr Free State", ["Orange River Free State", "Transvaal"], "Orange River Free State"),
    ("Manchurai", ["Manchuria", "Mongolia"], "Manchuria"),
    ("Bosnia", ["Abyssinia", "Borneo"], None),
    ("albania", ["Britain", "Arabia", "Algiers"], None),
    ("uk", ["Britain"], None),
    ("", ["Britain"], None),
    ("Hom", ["Holm", "Hamburg"], "Holm"),
    ("Rme", ["Rome", "Roma Nova"], "Rome"),
    ("Frnc", ["France", "Franconia"], None),
    ("Itly", ["Italy", "Iceland"], "Italy"),
    ("Jpan", ["Japan", "Spain"], "Japan"),
    ("Spain", ["Britain", "France", "Germany", "Japan", "Russia", "Italy", "United States"], None),
    ("xyz", ["Holm"], None),
])
def test_nearest_offers_only_a_plausible_typo(typo, names, found):
    assert nearest(typo, names) == found


def test_tolerance_grows_with_the_length_of_the_word():
    assert [tolerance(n) for n in (2, 3, 4, 5, 8, 9, 20)] == [0, 1, 1, 2, 2, 3, 4]


def test_a_word_that_names_another_kind_gets_no_suggestion():
    players = ["Britain", "France", "Japan"]
    everything = players + ["Spain", "Portugal", "Spanish Sahara"]
    assert nearest("Spain", players, others=everything) is None
    assert nearest("Spian", players, others=everything) is None
    assert nearest("Japn", players, others=everything) == "Japan"


def test_a_word_nearer_a_name_of_another_kind_than_any_asked_for_gets_nothing():
    powers, areas = ["Persia"], ["Prussia", "Persia Gulf"]
    assert nearest("Prusia", powers, others=areas) is None
    assert nearest("Prsia", powers, others=areas) == "Persia"


WORDS = hs.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=14)


def edited(word: str, where: int, how: int, letter: str) -> str:
    """``word`` with one edit at ``where``: a letter left out, doubled, swapped or wrong."""
    i = where % len(word)
    if how == 0:
        return word[:i] + word[i + 1:]
    if how == 1:
        return word[:i] + word[i] + word[i:]
    if how == 2 and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + letter + word[i + 1:]


@given(hs.lists(WORDS, min_size=1, max_size=8, unique=True), hs.text(min_size=0, max_size=20))
def test_a_suggestion_is_always_one_of_the_names_asked_for(names, text):
    found = nearest(text, names, others=["Spain", "Holm", text])
    assert found is None or found in names


@given(hs.lists(WORDS, min_size=1, max_size=8, unique=True))
def test_every_name_written_exactly_suggests_itself(names):
    for name in names:
        assert nearest(name.title(), names) == name


@given(WORDS.filter(lambda w: len(w) >= 4), hs.integers(0, 20), hs.integers(0, 3),
       hs.sampled_from("abcdefghijklmnopqrstuvwxyz"), hs.lists(WORDS, max_size=6))
def test_one_letter_out_of_a_name_of_four_or_more_letters_finds_a_name_as_close(name, where, how, letter, rest):
    typo = edited(name, where, how, letter)
    assume(len(typo) >= 3)
    names = [name, *rest]
    found = nearest(typo, names)
    assert found is not None
    assert distance(key(typo), key(found)) <= distance(key(typo), key(name)) <= 1


@given(WORDS, hs.lists(WORDS, min_size=1, max_size=6))
def test_a_word_that_is_a_name_of_another_kind_never_gets_a_suggestion(word, names):
    assume(word not in names)
    assert nearest(word, names, others=[word]) is None


def test_words_a_grammar_split_are_joined_into_known_names():
    from pbem.kit.names import join_words

    known = {"United States", "France", "Austria-Hungary"}
    resolve = {"UNITED STATES": "United States", "FRANCE": "France",
               "AUSTRIA HUNGARY": "Austria-Hungary"}.get
    resolve_any = lambda name: resolve(name.upper(), name)  # noqa: E731
    assert join_words(["United", "States", "France"], resolve_any, known) == ["United States", "France"]
    assert join_words(["Austria", "Hungary"], resolve_any, known) == ["Austria Hungary"]
    assert join_words(["Frnce", "United"], resolve_any, known) == ["Frnce", "United"]
