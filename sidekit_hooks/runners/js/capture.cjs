'use strict'
// sidekit: hold back a JS test runner's console output and, when the process exits, print the compact
// answer instead (or the output itself when it is short). The runner runs as written; only its output is
// kept in a file under .sidekit/<runner>/. The exit code stays the process's own. Anything failing here
// prints the held-back output as it was. SIDEKIT_RAW=1 (or SIDEKIT_JS_REPORT_ONLY=1) turns all of it off.
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { spawn, spawnSync } = require('node:child_process')

const KEY = Symbol.for('sidekit.capture')
const PYTHON_TIMEOUT_MS = 30000
const PACKAGE_PARENT = path.resolve(__dirname, '..', '..', '..')
const BOOT = 'import sys; sys.path.insert(0, sys.argv.pop(1)); ' +
  'from sidekit_hooks.runners.js.compact import main; sys.exit(main(sys.argv[1:]))'
const SERVE = 'import sys; sys.path.insert(0, sys.argv.pop(1)); ' +
  'from sidekit_hooks.runners.js.compact import serve; sys.exit(serve(sys.argv[1]))'
const ANSWER_WAIT_MS = 20000 // a started answerer that does not answer in this long: print the raw output
const POLL_MS = 5

function sleep (ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) }

// The answerer starts with the run, so Python's start-up and imports overlap the tests instead of
// following them; at exit the request and the answer are files in a private folder. Its 'ready' file
// says it is waiting: without it the answer comes from a Python started then (spawnSync), as before.
function startAnswerer (env) {
  try {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sidekit-js-'))
    const child = spawn(python(env), ['-I', '-S', '-c', SERVE, PACKAGE_PARENT, folder], { stdio: 'ignore' })
    child.on('error', () => {})
    child.unref()
    return folder
  } catch (error) {
    return ''
  }
}

function askAnswerer (folder, args) {
  // '' when there is no waiting answerer (the caller asks a fresh Python), null when it did not answer
  if (!folder || !fs.existsSync(path.join(folder, 'ready'))) return ''
  const request = path.join(folder, 'request.json')
  fs.writeFileSync(request + '.tmp', JSON.stringify(args))
  fs.renameSync(request + '.tmp', request)
  const answer = path.join(folder, 'answer.txt')
  const deadline = Date.now() + ANSWER_WAIT_MS
  while (Date.now() < deadline) {
    if (fs.existsSync(answer)) return fs.readFileSync(answer, 'utf8')
    sleep(POLL_MS)
  }
  return null
}

function forget (folder) {
  if (folder) try { fs.rmSync(folder, { recursive: true, force: true }) } catch (error) {}
}

function off (env) {
  const raw = env.SIDEKIT_RAW || ''
  return (raw !== '' && raw !== '0') || (env.SIDEKIT_JS_REPORT_ONLY || '') === '1'
}

function python (env) {
  if (env.SIDEKIT_RUNTIME_PYTHON) return env.SIDEKIT_RUNTIME_PYTHON // the hooks' interpreter, in the agent's session
  let folder = __dirname
  for (let i = 0; i < 8; i++) {
    if (fs.existsSync(path.join(folder, 'pyvenv.cfg'))) return path.join(folder, 'bin', 'python')
    const local = path.join(folder, '.venv', 'bin', 'python')
    if (fs.existsSync(local)) return local
    const parent = path.dirname(folder)
    if (parent === folder) break
    folder = parent
  }
  return 'python3'
}

function projectOf (report) {
  // <project>/.sidekit/<runner>/report-*.json, as the PreToolUse rewrite names it
  const runnerDir = path.dirname(report)
  const state = path.dirname(runnerDir)
  return path.basename(state) === '.sidekit' ? path.dirname(state) : ''
}

function printedBefore (env, argv) {
  // npm echoes `> name@version test` and `> script args` before the runner starts: the model gets those too
  // (npx sets npm_lifecycle_event too, as `npx` with npm_command `exec`, and echoes nothing)
  if (!env.npm_lifecycle_event || env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx') return 0
  const parts = [env.npm_package_name || '', env.npm_package_version || '', env.npm_lifecycle_event,
    env.npm_lifecycle_script || '', argv.slice(2).join(' ')]
  return parts.reduce((sum, part) => sum + Buffer.byteLength(part), 12)
}

function inside (folder, project) {
  // the folder (or its nearest existing ancestor: what is missing cannot be a link), links resolved, lies under
  // the project (resolved): a committed .sidekit link cannot lead a write out
  let existing = folder
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing)
  const real = fs.realpathSync(existing)
  const base = fs.realpathSync(project)
  return real === base || real.startsWith(base + path.sep)
}

function stamp () {
  const d = new Date()
  const two = (n) => String(n).padStart(2, '0')
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}` +
    `${two(d.getSeconds())}`
}

function start (runner) {
  if (globalThis[KEY]) return globalThis[KEY]
  if (off(process.env)) return null
  // filter: the run's test name pattern (-t); partial: what in the runner's config may stop or narrow the run
  // ('bail', 'project'; 'unknown' until its reporter reads the config): both as the reporter read them
  const state = {
    runner, started: Date.now() / 1000, report: '', version: '', filter: '', partial: 'unknown', done: false, late: false
  }
  globalThis[KEY] = state
  const answerer = startAnswerer(process.env)
  const chunks = []
  const streams = [process.stdout, process.stderr]
  const originals = streams.map((s) => s.write)
  const write = originals[0].bind(process.stdout)
  streams.forEach((stream) => {
    stream.write = function (chunk, encoding, callback) {
      if (state.done) return Reflect.apply(originals[streams.indexOf(stream)], stream, arguments)
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') process.nextTick(done)
      return true
    }
  })
  const release = () => {
    state.done = true
    streams.forEach((stream, index) => { stream.write = originals[index] })
    return chunks.join('')
  }
  const rawFile = (project) => {
    const file = path.join(project, '.sidekit', runner, `raw-${stamp()}-${process.pid}.txt`)
    if (!inside(path.dirname(file), project)) throw new Error('.sidekit leads outside the project')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    return file
  }
  const saveRaw = (file, raw) => fs.writeFileSync(file, raw, { flag: 'wx' }) // never through a planted link
  const finish = (code) => {
    if (state.done) return
    const raw = release()
    try {
      const project = state.report ? projectOf(state.report) : ''
      if (!project) { write(raw); return }
      const file = rawFile(project)
      saveRaw(file, raw)
      const request = [runner, project, String(state.started), String(code), file, state.report, state.version,
        String(printedBefore(process.env, process.argv)), state.filter, state.partial]
      const answered = askAnswerer(answerer, request)
      if (answered !== '') { write(answered || raw); return }
      const done = spawnSync(python(process.env), ['-I', '-S', '-c', BOOT, PACKAGE_PARENT, ...request], {
        encoding: 'utf8', timeout: PYTHON_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe']
      })
      write(done.status === 0 && done.stdout ? done.stdout : raw)
    } catch (error) {
      write(raw)
    } finally {
      forget(answerer)
    }
  }
  const exitCode = (code) => (typeof process.exitCode === 'number' ? process.exitCode : code)
  // jest sets process.exitCode in its own 'exit' listener, added after ours: when the event loop drains
  // ('beforeExit'), a listener added then runs after it and sees the final code.
  process.on('exit', (code) => { if (!state.late) finish(exitCode(code)) })
  process.once('beforeExit', () => {
    state.late = true
    process.on('exit', (code) => finish(exitCode(code)))
  })
  process.on('SIGTERM', function stopped () {
    if (state.done) return
    const raw = release()
    let where = '(not saved)'
    try {
      const project = state.report ? projectOf(state.report) : ''
      if (project) { const file = rawFile(project); saveRaw(file, raw); where = file }
    } catch (error) {}
    const lines = raw.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split('\n').filter((l) => l.trim())
    const seconds = Math.round(Date.now() / 1000 - state.started)
    write(`sidekit: ${runner} was stopped by SIGTERM after ${seconds} s, before it finished; what it printed: ` +
      `${where}; its last line: ${(lines[lines.length - 1] || '').trim().slice(0, 140)}\n`)
    forget(answerer)
    if (process.listenerCount('SIGTERM') === 1) {
      process.removeListener('SIGTERM', stopped)
      process.kill(process.pid, 'SIGTERM')
    }
  })
  state.setReport = (file) => {
    // jest does not create the report's folder; a run before any sidekit state exists would lose it
    if (typeof file !== 'string' || !file) return
    state.report = file
    try {
      const project = projectOf(file)
      const folder = path.dirname(file)
      if (project && inside(folder, project)) fs.mkdirSync(folder, { recursive: true })
    } catch (error) {}
  }
  return state
}

module.exports = { start, projectOf, python, printedBefore, inside }
