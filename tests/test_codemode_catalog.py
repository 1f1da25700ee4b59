"""The catalog: one line per tool, the byte budget at its exact edge, the warning, the size-limit figures."""
from __future__ import annotations

import logging

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import sizelimit
from tooldesign.codemode.catalog import (BUDGET_BYTES, LOG, PREAMBLE, RUN_CODE, build_catalog, catalog_for,
                                         catalog_line, model_tool_names, single_line, run_code_definition)
from tooldesign.codemode.registry import Registry


def rows(*pairs, access="both"):
    """Registry rows for (code, description) pairs, in the order given."""
    registry = Registry()
    for code, description in pairs:
        registry.create_tool(code, description, code_mode_access=access)
    return registry.code_callable()


def size_with(*pairs) -> int:
    return build_catalog(rows(*pairs), budget=10**9, logger=None).size_bytes


def test_preamble_is_about_900_characters():
    assert 850 <= len(PREAMBLE) <= 960
    assert PREAMBLE.endswith("\n")


def test_newlines_and_tabs_become_spaces():
    assert single_line("a\nb\tc\r\nd") == "a b c  d"
    catalog = build_catalog(rows(("CC_A", "first\nCC_FAKE pretends\tto be a tool"), ("CC_B", "second")), logger=None)
    tool_lines = catalog.text[len(PREAMBLE):].splitlines()
    assert len(tool_lines) == 2 and tool_lines[1].startswith('  await callTool("CC_B"')


def test_a_line_holds_code_argument_names_and_description_and_nothing_else():
    line = catalog_line("CC_GET_READINGS", ["shipment_id"], "Temperature log.")
    assert line == '  await callTool("CC_GET_READINGS", { shipment_id })  // Temperature log.'
    assert catalog_line("CC_GET_LIMITS", [], "Limits.") == '  await callTool("CC_GET_LIMITS", {})  // Limits.'


def test_cold_chain_catalog_holds_no_schema_types():
    with Registry() as registry:
        cc.register(registry)
        text = catalog_for(registry).text
    assert "integer" not in text and "required" not in text
    assert all(code in text for code in cc.CODES)


def test_tool_that_fits_with_zero_bytes_to_spare_is_included(caplog):
    pairs = (("CC_A", "a" * 100), ("CC_B", "b" * 50))
    exact = size_with(*pairs)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        catalog = build_catalog(rows(*pairs), budget=exact)
    assert catalog.codes == ["CC_A", "CC_B"] and catalog.spare_bytes == 0 and catalog.left_out == ()
    assert catalog.warning is None and caplog.records == []


def test_one_byte_over_leaves_the_tool_out_with_one_warning(caplog):
    pairs = (("CC_A", "a" * 100), ("CC_B", "b" * 50))
    exact = size_with(*pairs)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        catalog = build_catalog(rows(*pairs), budget=exact - 1)
    assert catalog.codes == ["CC_A"] and catalog.left_out_codes == ["CC_B"]
    assert catalog.size_bytes <= exact - 1
    assert len(caplog.records) == 1
    message = caplog.records[0].getMessage()
    assert "1 code-callable tool left out" in message and f"{exact - 1:,} bytes" in message
    assert "Shorten the descriptions" in message


def test_a_tool_that_does_not_fit_is_skipped_and_the_next_one_tried():
    big, small = ("CC_BIG", "x" * 3000), ("CC_SMALL", "y" * 10)
    budget = size_with(small) + 100
    catalog = build_catalog(rows(big, small), budget=budget, logger=None)
    assert catalog.codes == ["CC_SMALL"] and catalog.left_out_codes == ["CC_BIG"]


def test_the_budget_counts_utf8_bytes_not_characters():
    euro, plain = ("CC_A", "€" * 10), ("CC_A", "e" * 10)
    assert size_with(euro) - size_with(plain) == 20


def test_only_code_callable_rows_enter_and_nothing_raises():
    catalog = build_catalog(rows(("CC_D", "direct only"), access="direct"), logger=None)
    assert catalog.codes == [] and catalog.code_callable_count == 0 and catalog.text == PREAMBLE


def test_a_preamble_over_the_budget_is_a_configuration_error():
    with pytest.raises(ValueError, match="preamble alone"):
        build_catalog([], budget=100)


def test_run_code_carries_the_catalog_and_the_model_list_follows_access():
    with Registry() as registry:
        cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"})
        catalog = catalog_for(registry)
        assert run_code_definition(catalog)["description"] == catalog.text
        assert model_tool_names(registry) == [cc.LIMITS, RUN_CODE]
        for code in cc.CODES:
            registry.set_access(code, "direct")
        assert model_tool_names(registry) == list(cc.CODES)  # nothing for a program: no run_code


# ---------- the size-limit figures ----------

def test_nine_fillers_give_12_code_callable_10_in_the_catalog_2_left_out(caplog):
    with caplog.at_level(logging.WARNING, logger=LOG.name), sizelimit.demo_registry() as registry:
        catalog = catalog_for(registry)
    assert (catalog.code_callable_count, len(catalog.included), len(catalog.left_out)) == (12, 10, 2)
    assert catalog.budget == BUDGET_BYTES == 31_855
    assert catalog.size_bytes <= BUDGET_BYTES
    assert catalog.spare_bytes < sizelimit.entry_bytes()["one filler"]  # less room than one more filler
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "2 code-callable tools left out" in caplog.records[0].getMessage()
    assert "LEFT OUT:            2" in catalog.report()


def test_two_registries_with_the_same_tools_drop_different_pairs(tmp_path):
    catalogs = sizelimit.two_orders(tmp_path, logger=None)
    assert (tmp_path / "limit_A.sqlite").exists() and (tmp_path / "limit_B.sqlite").exists()
    a, b = catalogs["A"].left_out_codes, catalogs["B"].left_out_codes
    assert len(a) == len(b) == 2 and set(a) != set(b)
    assert sorted(catalogs["A"].codes + a) == sorted(catalogs["B"].codes + b)
    # in both, the small cold-chain tools got in: after a skipped filler in B
    assert all(code in catalogs["B"].codes for code in cc.CODES)


def test_three_ways_to_stay_inside_leave_nothing_out():
    table = sizelimit.three_ways().set_index("way")
    assert table["left out"].tolist() == [2, 0, 0, 0]
    assert table["in the catalog"].tolist() == [10, 12, 3, 3]


@pytest.mark.parametrize("budget", [10_000, 20_000, 31_855, 40_000])
def test_fillers_that_fit_matches_the_arithmetic(budget):
    sizes = sizelimit.entry_bytes()
    fixed = sizes["preamble"] + sum(sizes[code] for code in cc.CODES)
    expected = min(9, max(0, (budget - fixed) // sizes["one filler"]))
    assert sizelimit.fillers_that_fit(budget) == expected


def test_plot_catalog_has_title_and_labels():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = sizelimit.plot_catalog(sizelimit.explore())
    ax = fig.axes[0]
    assert "10 of 12" in ax.get_title() and ax.get_xlabel() == "bytes" and ax.get_ylabel()
    # left out is said in words and hatching, not by colour alone
    names = [t.get_text() for t in ax.get_yticklabels()]
    assert sum(n.endswith("(left out)") for n in names) == 2
    assert sum(bool(p.get_hatch()) for p in ax.patches) == 2
    plt.close(fig)


# ---------- the explorer's logic ----------

def test_explorer_view_at_the_lesson_settings():
    from tooldesign.codemode.widgets import explorer_view
    view = explorer_view()
    assert len(view.catalog.left_out) == 2 and view.log_line.startswith("WARNING code-mode catalog budget")
    assert "LEFT OUT:            2" in view.text()


def test_explorer_view_with_room_for_everything_has_no_warning():
    from tooldesign.codemode.widgets import explorer_view
    view = explorer_view(budget=40_000)
    assert view.catalog.left_out == () and view.log_line.startswith("(no warning")


def test_explorer_refuses_padding_past_the_description_limit():
    from tooldesign.codemode.widgets import MAX_PADDING, explorer_view
    with pytest.raises(ValueError, match="4,000 characters"):
        explorer_view(padding=MAX_PADDING + 1)
    assert len(sizelimit.demo_registry(padding=MAX_PADDING).get("CC_FILLER_1").description) <= 4000


def test_the_widget_builds():
    pytest.importorskip("ipywidgets")
    from tooldesign.codemode.widgets import catalog_explorer
    import matplotlib
    matplotlib.use("Agg")
    widget = catalog_explorer()
    assert len(widget.children) == 5
    display = widget.children[-1]
    assert "LEFT OUT:            2" in display.value and "data:image/png;base64," in display.value
    widget.children[0].value = 40_000  # move the budget slider: everything fits, no warning
    assert "LEFT OUT:            0" in display.value and "no warning" in display.value


def _headline_and_report(value: str) -> tuple[str, str]:
    import re
    alt = re.search(r"alt='([^']*)'", value).group(1)
    report = re.search(r"<pre[^>]*>(.*?)</pre>", value, re.S).group(1)
    return alt, report


@pytest.mark.parametrize("control, value", [(0, 40_000), (0, 9_000), (1, 100), (2, 3), (3, "B")])
def test_text_and_chart_change_together_in_one_update(control, value):
    """One slider move sends one new value, and the chart's title and the report in it agree."""
    pytest.importorskip("ipywidgets")
    from tooldesign.codemode.widgets import catalog_explorer
    import matplotlib
    matplotlib.use("Agg")
    widget = catalog_explorer()
    display = widget.children[-1]
    updates = []
    display.observe(lambda change: updates.append(change["new"]), names="value")
    widget.children[control].value = value
    assert len(updates) == 1
    headline, report = _headline_and_report(updates[0])
    fitted, callable_ = (int(n) for n in headline.split(" code-callable")[0].split(" of "))
    assert f"in the catalog:      {fitted}\n" in report and f"code-callable tools: {callable_}\n" in report
    assert f"LEFT OUT:            {callable_ - fitted}" in report
