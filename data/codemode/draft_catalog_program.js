// A program a model might write in code mode when it is given the DRAFT catalog.
// Recorded for the course: written the way models write such programs, not taken from a live run.
// The draft descriptions name no result fields, so the field names below are guesses, and two of
// them are wrong: readings carry temp_c (not temperature_celsius), limits carry max_temp_c (not
// temp_limit_c). Every lookup quietly comes back undefined, and the program reports zero with confidence.
// callTool is the one function the course's runner provides.

const shipments = await callTool("CC_LIST_SHIPMENTS", {});
const limitRows = await callTool("CC_GET_LIMITS", {});
const limitByClass = {};
for (const row of limitRows) {
  limitByClass[row.product_class] = row.temp_limit_c;
}

const claims = [];
for (const shipment of shipments) {
  const limit = limitByClass[shipment.product_class];
  const log = await callTool("CC_GET_READINGS", { shipment_id: shipment.shipment_id });
  let run = 0;
  let longest = 0;
  for (const reading of log.readings || []) {
    const temp = reading.temperature_celsius;
    if (temp === undefined || limit === undefined) continue; // skip incomplete readings
    run = temp > limit ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  if (longest * 30 > 60) claims.push(shipment.shipment_number);
}

console.log(`Checked ${shipments.length} shipments: ${claims.length} temperature breaches found, no claims due.`);
console.log(`RESULT: ${claims.join(", ") || "none"} | 0`);
