// sidekit's vitest reporter: appended by the PreToolUse rewrite after `--reporter=default`; see capture.cjs.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const capture = require('./capture.cjs')
const fs = require('node:fs')
const path = require('node:path')
const state = capture.start('vitest')
const STACK_CHARS = 4000

// A file that did not load: its error as vitest holds it (the JSON report keeps only the message). A
// `require`d file's compile error names that file above its stack; vite's transform error names it in `loc`.
function loadError (error) {
  const rollup = (error && (error.__vitest_rollup_error__ || error)) || {}
  const loc = rollup.loc && rollup.loc.file ? `${rollup.loc.file}:${rollup.loc.line}:${rollup.loc.column}` : ''
  return {
    name: String((error && error.name) || 'Error'),
    message: String((error && error.message) || '').slice(0, STACK_CHARS),
    stack: String((error && error.stack) || '').slice(0, STACK_CHARS),
    loc: (loc || (typeof rollup.id === 'string' ? rollup.id : '')).slice(0, STACK_CHARS)
  }
}

// One line per test file that failed outside its tests, beside the report (`<report>.errors`, written once);
// `listed` gives each file's name and errors.
function saveLoadErrors (listed) {
  if (!state || !state.report) return
  try { // nothing here may break the run
    const modules = listed().filter((m) => Array.isArray(m.errors) && m.errors.length)
    if (!modules.length) return
    const project = capture.projectOf(state.report)
    if (!project || !capture.inside(path.dirname(state.report), project)) return
    const lines = modules.map((m) => JSON.stringify({ name: m.name, errors: m.errors.map(loadError) }) + '\n')
    fs.writeFileSync(state.report + '.errors', lines.join(''), { flag: 'wx' }) // never through a planted link
  } catch (error) {}
}

export default class SidekitVitestReporter {
  onInit (ctx) {
    if (!state) return
    const out = ctx && ctx.config ? ctx.config.outputFile : undefined
    state.setReport(typeof out === 'string' ? out : (out && typeof out.json === 'string' ? out.json : ''))
    state.version = (ctx && ctx.version) || ''
    const config = (ctx && ctx.config) || {}
    state.filter = config.testNamePattern ? String(config.testNamePattern) : '' // -t, --testNamePattern
    // what may stop or narrow the run, so a file in the report may not have run all its tests
    const projects = Array.isArray(config.project) ? config.project.length : config.project
    state.partial = [config.bail ? 'bail' : '', projects ? 'project' : ''].filter(Boolean).join(',')
  }

  onTestRunEnd (testModules) { // vitest 3+
    saveLoadErrors(() => (testModules || []).map((m) => ({ name: m.moduleId, errors: m.errors() })))
  }

  onFinished (files) { // vitest 2 (3+ calls it too: the file is written once)
    saveLoadErrors(() => (files || []).map((f) => ({ name: f.filepath, errors: (f.result && f.result.errors) || [] })))
  }
}
