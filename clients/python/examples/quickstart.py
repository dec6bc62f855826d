"""Upload an audio file, wait for its transcript (the run the workspace's automatic scenario
started, else one on the default scenario), print it as SRT subtitles.

    HARK_URL=http://127.0.0.1:8080 HARK_API_KEY=hark_... python3 clients/python/examples/quickstart.py call.wav
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from hark import Hark  # noqa: E402

if len(sys.argv) != 2:
    sys.exit("usage: quickstart.py AUDIO_FILE")
hark = Hark()
transcript = hark.transcribe(sys.argv[1])
sys.stdout.write(str(hark.get_recording_transcript(recording_id=transcript["recording_id"], query={"format": "srt"})))
