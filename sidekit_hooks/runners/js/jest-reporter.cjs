'use strict'
// sidekit's jest reporter: appended by the PreToolUse rewrite before `--reporters=default`; see capture.cjs.
const state = require('./capture.cjs').start('jest')

class SidekitJestReporter {
  constructor (globalConfig) {
    if (state && globalConfig) {
      state.setReport(globalConfig.outputFile)
      state.filter = globalConfig.testNamePattern ? String(globalConfig.testNamePattern) : '' // -t
      const projects = (globalConfig.selectProjects || []).length // what may stop or narrow the run
      state.partial = [globalConfig.bail ? 'bail' : '', projects ? 'project' : ''].filter(Boolean).join(',')
    }
  }

  getLastError () { return undefined }
}

module.exports = SidekitJestReporter
