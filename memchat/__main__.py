from memchat.cli.main import run

run()
