from memchat.cli.entry import run

run()
