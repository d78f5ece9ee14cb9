// sidekit's vitest reporter: appended by the PreToolUse rewrite after `--reporter=default`; see capture.cjs.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const state = require('./capture.cjs').start('vitest')

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
}
