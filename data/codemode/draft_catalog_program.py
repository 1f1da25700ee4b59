# A program a model might write in code mode when it is given the DRAFT catalog.
# Recorded for the course: written in the way models write such programs, not taken from a live run.
# The draft descriptions name no result fields, so the field names below are guesses, and two of
# them are wrong: readings carry temp_c (not temperature_celsius), limits carry max_temp_c (not
# temp_limit_c). Every lookup quietly comes back empty, and the program reports zero with confidence.
# callTool is the one function the course's runner provides.

shipments = callTool("CC_LIST_SHIPMENTS", {})
limit_rows = callTool("CC_GET_LIMITS", {})
limit_by_class = {row.get("product_class"): row.get("temp_limit_c") for row in limit_rows}

claims = []
for shipment in shipments:
    limit = limit_by_class.get(shipment.get("product_class"))
    log = callTool("CC_GET_READINGS", {"shipment_id": shipment["shipment_id"]})
    run = longest = 0
    for reading in log.get("readings", []):
        temp = reading.get("temperature_celsius")
        if temp is None or limit is None:
            continue  # skip incomplete readings
        run = run + 1 if temp > limit else 0
        longest = max(longest, run)
    if longest * 30 > 60:
        claims.append(shipment["shipment_number"])

print(f"Checked {len(shipments)} shipments: {len(claims)} temperature breaches found, no claims due.")
print("RESULT: " + (", ".join(claims) or "none") + " | 0")
