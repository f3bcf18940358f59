// Passwords of 8+ characters that top the public breach-frequency lists. Kept short on purpose:
// it stops the guesses an attacker tries first without shipping a large dictionary to the web.
const LIST = `password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword
12345678 123456789 1234567890 12345678910 123123123 11111111 111111111 00000000 88888888
87654321 987654321 0987654321 1q2w3e4r 1q2w3e4r5t 1qaz2wsx qwertyui qwerty123 qwerty12
qwertyuiop 1qazxsw2 zaq12wsx zaq1zaq1 asdfghjk asdfghjkl zxcvbnm1 abc12345 abcd1234
iloveyou iloveyou1 sunshine1 princess1 football1 baseball1 superman batman123 starwars
trustno1 whatever welcome1 welcome123 letmein1 letmein123 changeme changeme1 computer
internet michelle jennifer jordan23 charlie1 shadow12 master12 dragon12 monkey12 freedom1
qazwsxedc aaaaaaaa abcdefgh abcdefg1 secret12 secret123 admin123 admin1234 administrator
football baseball basketball sunshine princess 123qweasd 1234qwer qwer1234 q1w2e3r4
q1w2e3r4t5 passpass loveyou1 lovelove 147258369 789456123 12341234 11223344 12121212
hello123 hellohello test1234 testtest 987654321a iloveu123 mustang1 mercedes
elizabeth nicole123 jessica1 samantha`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));
