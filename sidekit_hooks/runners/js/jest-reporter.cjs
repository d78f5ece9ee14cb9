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

  // Each file's results as it finishes (jest's --json shape), beside the report: a run that dies before
  // jest writes its report (a test calling process.exit) still shows what the files that finished said.
  onTestResult (test, result) {
    if (!state || !state.report || !result) return
    try {
      const file = {
        name: result.testFilePath,
        status: result.numFailingTests > 0 || result.testExecError ? 'failed' : 'passed',
        message: result.failureMessage || '',
        assertionResults: (result.testResults || []).map((a) => ({
          ancestorTitles: a.ancestorTitles, fullName: a.fullName, status: a.status, title: a.title,
          failureMessages: a.failureMessages, location: a.location, duration: a.duration
        }))
      }
      require('node:fs').appendFileSync(state.report + '.partial', JSON.stringify(file) + '\n', { flag: 'a' })
    } catch (error) {}
  }

  getLastError () { return undefined }
}

module.exports = SidekitJestReporter
