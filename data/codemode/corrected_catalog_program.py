# A program a model might write in code mode when it is given the CORRECTED catalog.
# Recorded for the course: written in the way models write such programs, not taken from a live run.
# Every field it reads (temp_c, max_temp_c, sample_minutes, ...) is named in a tool description,
# so nothing is guessed. callTool is the one function the course's runner provides.

shipments = callTool("CC_LIST_SHIPMENTS", {})
limits = {row["product_class"]: row for row in callTool("CC_GET_LIMITS", {})}

claims = []
for shipment in shipments:
    limit = limits[shipment["product_class"]]
    log = callTool("CC_GET_READINGS", {"shipment_id": shipment["shipment_id"]})
    run = longest = 0
    for reading in log["readings"]:
        run = run + 1 if reading["temp_c"] > limit["max_temp_c"] else 0
        longest = max(longest, run)
    minutes = longest * limit["sample_minutes"]
    if minutes > limit["max_minutes_above"]:
        started_hours = -(-minutes // 60)
        claims.append((shipment, minutes, started_hours * limit["claim_per_hour_eur"]))

for shipment, minutes, eur in claims:
    print(f"{shipment['shipment_number']}  {shipment['product_class']:<7}  {shipment['carrier']:<14}  "
          f"{minutes:>3} min  EUR {eur}")
total = sum(eur for _, _, eur in claims)
print("RESULT: " + ", ".join(shipment["shipment_number"] for shipment, _, _ in claims) + f" | {total}")
