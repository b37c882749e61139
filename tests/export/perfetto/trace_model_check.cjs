// trace_model_check.cjs — an independent consumer of `evgen export --perfetto`'s output:
// @tracerbench/trace-model, which models Chrome trace events as the catapult trace viewer does
// (events stably sorted by ts, "B"/"E" merged into complete slices per thread, parents found by
// containment, processes and threads named by the "M" events), builds its model of FILE.json.
// Checked: one process; every slice merged from a "B" and its "E" (the model stretches an unmatched
// one to the trace's bounds); each slice inside its parent; GCS slices named "GC #..." on the thread
// named "GCs", and a foreground GC's parent a background GC; SLICES slices and INSTANTS instants.
// usage: NODE_PATH=DIR node trace_model_check.cjs FILE.json GCS SLICES INSTANTS
'use strict';
const fs = require('fs');
const { buildModel } = require('@tracerbench/trace-model');

const [file, gcs, slices, instants] = process.argv.slice(2);
const trace = JSON.parse(fs.readFileSync(file, 'utf8'));
const model = buildModel(trace);
const problems = [];
if (model.processes.length !== 1)
  problems.push(`${model.processes.length} processes`);
let nSlices = 0, nInstants = 0, nGcs = 0;
for (const proc of model.processes) {
  for (const thread of proc.threads) {
    for (const e of thread.events) {
      if (e.ph === 'i' || e.ph === 'I') { // the model knows only the spec's older 'I'
        nInstants++;
        continue;
      }
      if (!e.isComplete())
        continue;
      nSlices++;
      if (!Array.isArray(e.traceEvent) || e.traceEvent.length !== 2)
        problems.push(`${thread.name}: slice ${e.name} at ${e.start} not from a B/E pair`);
      if (e.parent && (e.start < e.parent.start || e.end > e.parent.end))
        problems.push(`${thread.name}: ${e.name} is not inside its parent ${e.parent.name}`);
      if (/^GC #/.test(e.name)) {
        nGcs++;
        if (thread.name !== 'GCs')
          problems.push(`${e.name} on thread ${thread.name}`);
        if (/foreground$/.test(e.name) && !(e.parent && /background$/.test(e.parent.name)))
          problems.push(`${e.name} is not inside a background GC`);
      }
    }
  }
}
if (nGcs !== Number(gcs))
  problems.push(`${nGcs} GC slices, expected ${gcs}`);
if (nSlices !== Number(slices))
  problems.push(`${nSlices} slices, expected ${slices}`);
if (nInstants !== Number(instants))
  problems.push(`${nInstants} instants, expected ${instants}`);
if (problems.length) {
  console.log(problems.slice(0, 20).join('\n'));
  process.exit(1);
}
console.log(`${model.processes[0].threads.length} threads, ${nSlices} slices (${nGcs} GCs), ${nInstants} instants`);
