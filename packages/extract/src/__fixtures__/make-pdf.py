# Writes the PDF fixtures: a real two-page PDF, one that needs a password, and a broken one.
# Run: python3 make-pdf.py (from this folder). Offsets in the xref table are computed, not guessed.
import os

def build(pages, encrypt=False):
    objects = []
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'
    kids = ' '.join(f'{4 + 2 * i} 0 R' for i in range(len(pages)))
    objects.append('<< /Type /Catalog /Pages 2 0 R >>')
    objects.append(f'<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>')
    objects.append(font)
    for i, text in enumerate(pages):
        stream = f'BT /F1 18 Tf 72 720 Td ({text}) Tj ET'
        objects.append(f'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>')
        objects.append(f'<< /Length {len(stream)} >>\nstream\n{stream}\nendstream')
    info_number = len(objects) + 1
    objects.append('<< /Title (Fixture Report) /Producer (make-pdf.py) >>')
    trailer_extra = ''
    if encrypt:
        encrypt_number = len(objects) + 1
        objects.append('<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 '
                       '/O <' + 'a1' * 32 + '> /U <' + 'b2' * 32 + '> >>')
        trailer_extra = f' /Encrypt {encrypt_number} 0 R /ID [<' + 'c3' * 16 + '> <' + 'c3' * 16 + '>]'
    out = b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f'{n} 0 obj\n{body}\nendobj\n'.encode('latin-1')
    xref = len(out)
    out += f'xref\n0 {len(objects) + 1}\n0000000000 65535 f \n'.encode()
    for off in offsets:
        out += f'{off:010d} 00000 n \n'.encode()
    out += (f'trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info_number} 0 R{trailer_extra} >>\n'
            f'startxref\n{xref}\n%%EOF\n').encode()
    return out

with open('two-pages.pdf', 'wb') as f:
    f.write(build(['First page says hello.', 'Second page says goodbye.']))
with open('encrypted.pdf', 'wb') as f:
    f.write(build(['Secret page.'], encrypt=True))
with open('broken.pdf', 'wb') as f:
    f.write(b'%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not a PDF any more\n')
