// Upload an audio file, wait for its transcript (the run the workspace's automatic scenario
// started, else one on the default scenario), print it as SRT subtitles.
//   HARK_URL=http://127.0.0.1:8080 HARK_API_KEY=hark_… node --import tsx clients/typescript/examples/quickstart.ts call.wav
import { Hark } from '../src/index.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: quickstart.ts AUDIO_FILE');
  process.exit(2);
}
const hark = new Hark();
const transcript = await hark.transcribe(file);
process.stdout.write(String(await hark.getRecordingTranscript({ path: { recording_id: transcript.recording_id }, query: { format: 'srt' } })));
