"""The archive shows a report's column layout ("Alaska      United States possession") as
"Alaska: United States possession", also for a name that fills its column."""
from __future__ import annotations

from pbem.web.archive_pages import text_blocks


def test_a_name_filling_its_column_keeps_its_colon():
    text = ("Areas held\n"
            "  Alaska                 United States possession\n"
            "  Federated Malay States Britain possession; Britain Army (1)\n"
            "  Kaiser Wilhelm's Land  Netherlands protectorate\n"
            "  Orange River Free State Britain protectorate; Britain Army (3)\n"
            "  Fiji                   Britain possession\n")
    [block] = text_blocks(text)
    assert block["items"] == ["Alaska: United States possession",
                              "Federated Malay States: Britain possession; Britain Army (1)",
                              "Kaiser Wilhelm's Land: Netherlands protectorate",
                              "Orange River Free State: Britain protectorate; Britain Army (3)",
                              "Fiji: Britain possession"]


def test_a_list_without_columns_is_left_as_it_is():
    [block] = text_blocks("Events\n  Pan-Slav Agitation in Russia\n  A quiet turn elsewhere\n")
    assert block["items"] == ["Pan-Slav Agitation in Russia", "A quiet turn elsewhere"]
