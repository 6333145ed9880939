"""A simulated PN532 on an I2C bus, with tags on its antenna.

It checks every frame the host writes (preamble, LEN/LCS, TFI, DCS, postamble) and answers as
UM0701-02 says over I2C: each read starts with a status byte (bit 0: ready); after a good
command frame the ACK frame is ready at once, and the answer after ``busy_reads`` more
status polls. A bad frame gets no ACK, only silence. It knows GetFirmwareVersion,
SAMConfiguration, RFConfiguration and InListPassiveTarget (up to two targets at once).
Unpowered, it does not acknowledge its address (``FakeI2c`` raises OSError).

MicroPython-compatible, like tests/firmware/fakes.py.
"""

ACK = b"\x00\x00\xff\x00\xff\x00"


def answer_frame(command, data):
    body = bytes([0xD5, command + 1]) + data
    length = len(body)
    return (bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body
            + bytes([(-sum(body)) & 0xFF, 0x00]))


class FakePn532:
    """Put it in ``i2c.peers[0x24]``; put tags (``FakeTag``s) in ``field``."""

    def __init__(self, busy_reads=2):
        self.busy_reads = busy_reads
        self.powered = True
        self.field = []
        self.pending = []  # frames to hand out, each after its busy reads
        self.busy = 0
        self.commands = []
        self.bad_frames = 0
        self.sam_configured = False
        self.corrupt_next = 0
        """How many coming answers get a wrong data checksum (noise on the bus)."""

    def power_off(self):
        self.powered = False
        self.pending = []

    def power_on(self):
        self.powered = True
        self.sam_configured = False

    def place(self, tag):
        self.field.append(tag)

    def remove(self, tag):
        self.field.remove(tag)

    # -- I2C -------------------------------------------------------------------------------------

    def i2c_write(self, data):
        if data == b"\x00":  # a wake-up poke
            return
        if (len(data) < 9 or data[:3] != b"\x00\x00\xff" or (data[3] + data[4]) & 0xFF
                or len(data) != data[3] + 7 or data[-1] != 0x00):
            self.bad_frames += 1
            return
        body = data[5:5 + data[3]]
        if (sum(body) + data[5 + data[3]]) & 0xFF or body[0] != 0xD4:
            self.bad_frames += 1
            return
        command = body[1]
        self.commands.append(command)
        answer = self._execute(command, body[2:])
        if self.corrupt_next:
            self.corrupt_next -= 1
            answer = answer[:-2] + bytes([(answer[-2] + 1) & 0xFF, 0x00])
        self.pending = [ACK, answer]
        self.busy = 0

    def i2c_read(self, count):
        if not self.pending:
            return bytes(count)  # status 0: nothing ready
        if self.pending[0] != ACK and self.busy < self.busy_reads:
            self.busy += 1
            return bytes(count)
        frame = self.pending.pop(0)
        out = bytes([0x01]) + frame
        return (out + bytes(count))[:count]

    # -- commands ----------------------------------------------------------------------------

    def _execute(self, command, params):
        if command == 0x02:  # GetFirmwareVersion: PN532, v1.6
            return answer_frame(command, b"\x32\x01\x06\x07")
        if command == 0x14:  # SAMConfiguration
            self.sam_configured = params[:1] == b"\x01"
            return answer_frame(command, b"")
        if command == 0x32:  # RFConfiguration
            return answer_frame(command, b"")
        if command == 0x4A:  # InListPassiveTarget
            if not self.sam_configured:
                return answer_frame(command, b"\x00")
            most = params[0]
            found = self.field[:most]
            data = bytes([len(found)])
            for number in range(len(found)):
                tag = found[number]
                atqa = tag.atqa()
                data += (bytes([number + 1, atqa[1], atqa[0], tag.final_sak, len(tag.uid)])
                         + tag.uid)
            return answer_frame(command, data)
        # Anything else: the syntax-error frame.
        return b"\x00\x00\xff\x01\xff\x7f\x81\x00"
