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
    const pattern = ctx && ctx.config ? ctx.config.testNamePattern : undefined // -t, --testNamePattern
    state.filter = pattern ? String(pattern) : ''
  }
}
