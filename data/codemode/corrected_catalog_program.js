// A program a model might write in code mode when it is given the CORRECTED catalog.
// Recorded for the course: written the way models write such programs, not taken from a live run.
// Every field it reads (temp_c, max_temp_c, sample_minutes, ...) is named in a tool description,
// so nothing is guessed. callTool is the one function the course's runner provides.

const shipments = await callTool("CC_LIST_SHIPMENTS", {});
const limits = {};
for (const row of await callTool("CC_GET_LIMITS", {})) limits[row.product_class] = row;

const claims = [];
for (const shipment of shipments) {
  const { max_temp_c, sample_minutes, max_minutes_above, claim_per_hour_eur } = limits[shipment.product_class];
  const { readings } = await callTool("CC_GET_READINGS", { shipment_id: shipment.shipment_id });
  let runLength = 0;
  let longest = 0;
  for (const reading of readings) {
    if (reading.temp_c > max_temp_c) {
      runLength++;
      longest = Math.max(longest, runLength);
    } else {
      runLength = 0;
    }
  }
  const minutes = longest * sample_minutes;
  if (minutes > max_minutes_above) {
    claims.push({ shipment, minutes, eur: Math.ceil(minutes / 60) * claim_per_hour_eur });
  }
}

for (const { shipment, minutes, eur } of claims) {
  console.log(`${shipment.shipment_number}  ${shipment.product_class.padEnd(7)}  ${shipment.carrier.padEnd(14)}  ` +
              `${String(minutes).padStart(3)} min  EUR ${eur}`);
}
const total = claims.reduce((sum, claim) => sum + claim.eur, 0);
console.log(`RESULT: ${claims.map((claim) => claim.shipment.shipment_number).join(", ")} | ${total}`);
