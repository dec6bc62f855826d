"""Upload an audio file, transcribe it with the workspace's default scenario, print the text.

    HARK_URL=http://127.0.0.1:8080 HARK_API_KEY=hark_... python3 clients/python/examples/quickstart.py call.wav
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from hark import Hark  # noqa: E402

if len(sys.argv) != 2:
    sys.exit("usage: quickstart.py AUDIO_FILE")
print(Hark().transcribe(sys.argv[1])["text"])
