"""The table on the network, without Textual: the protocol, the server, the client, a bot
(docs/protocol.md). It sits between session.py and ui/."""
