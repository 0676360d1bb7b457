"""Everyday words that mean the same thing, in English and Chinese: a small concept lexicon. Pure.

People ask about their life in other words than they told it: "Who is my spouse?" about
"my husband Yerlan", "我母亲" about "我妈", "What pets do I have?" about a dog. The
embedding model bridges some of these, keyword overlap none. So recall reads both the
question and each memory as concepts as well as words, and a question's concept is met
by the same concept or by a narrower one below it (a question about "kids" is met by
"my son"; one about "my son" is met by "my lad", never by "my daughter"; "pets" by a
dog, "a cat" never by a dog). A broader word in the memory meets a narrower question
only for family words one step up ("my son?" — "our kids are Timur and Aru"), where the
broader word names the same people.

The lexicon covers kinds of everyday vocabulary — family, home, work, pets, vehicles,
food, health, pastimes — not the words of any one conversation. Each entry is a concept,
its parent (or None) and its words: English words are matched whole and lightly stemmed
(`terms.stem`), several words as a phrase; Chinese words as substrings.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memchat.memory.terms import STOPWORDS, has_cjk, plain_idioms, stem

_ENTRIES: tuple[tuple[str, str | None, str], ...] = (
    # family
    ("family", None, "family|relatives|household|家人|家里人|亲戚"),
    ("parent", "family", "parent|parents|folks|父母|爸妈|双亲"),
    ("mother", "parent", "mother|mum|mom|mam|mummy|mommy|mama|ma|妈妈|母亲|老妈|我妈|妈"),
    ("father", "parent", "father|dad|daddy|papa|pa|爸爸|父亲|老爸|我爸|爸"),
    ("child", "family", "child|children|kid|kids|little one|little ones|孩子|小孩|娃|子女"),
    ("son", "child", "son|lad|boy|儿子|小子"),
    ("daughter", "child", "daughter|girl|lass|女儿|闺女"),
    ("spouse", "family", "spouse|partner|other half|husband|wife|hubby|missus|significant other|girlfriend|boyfriend|gf|bf|fiance|fiancee|fiancé|fiancée|男朋友|女朋友|未婚夫|未婚妻|爱人|另一半|对象|伴侣|那口子|老伴|孩子他爸|孩子他妈|孩子她妈"),
    ("ex", "family", "ex|exes|ex-wife|ex-husband|ex-girlfriend|ex-boyfriend|ex-partner|ex-fiance|ex-fiancee|ex-fiancé|"
                     "ex-fiancée|前妻|前夫|前女友|前男友|前任"),
    ("husband", "spouse", "husband|hubby|老公|丈夫|先生"),
    ("wife", "spouse", "wife|missus|老婆|妻子|媳妇|太太"),
    ("sibling", "family", "sibling|siblings|兄弟姐妹"),
    ("brother", "sibling", "brother|bro|哥哥|弟弟|我哥|我弟|兄弟"),
    ("sister", "sibling", "sister|sis|姐姐|妹妹|我姐|我妹"),
    ("in-law", "family", "in-law|in-laws|brother-in-law|sister-in-law|mother-in-law|father-in-law|son-in-law|"
                         "daughter-in-law|妹夫|姐夫|嫂子|弟媳|儿媳|儿媳妇|女婿|公公|婆婆|岳父|岳母|丈母娘|老丈人|亲家"),
    ("grandparent", "family", "grandparent|grandparents|grandma|grandmother|granny|nan|grandpa|grandfather|"
                              "奶奶|爷爷|外婆|外公|姥姥|姥爷"),
    ("cousin", "family", "cousin|cousins|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|表兄|表兄弟|表姐妹"),
    ("grandchild", "family", "grandchild|grandchildren|grandkid|grandkids|grandson|granddaughter|孙子|孙女|外孙|外孙女"),
    # work
    ("work", None, "work|job|employer|company|firm|office|workplace|career|occupation|profession|hr|human resources|"
                   "工作|上班|公司|单位|职业|工作室"),
    ("boss", "work", "boss|manager|supervisor|line manager|team lead|team leader|领导|老板|上司|组长|主管|经理|"
                   "站长|店长|厂长|主任|总监|队长"),
    ("colleague", "work", "colleague|coworker|co-worker|workmate|work mate|teammate|crew|同事|工友"),
    # home
    ("home", None, "home|house|flat|apartment|address|live|lives|moved to|moved into|relocated|"
                   "住|住在|老家|房子|家里|搬到|搬去|搬家"),
    ("education", None, "study|studies|studying|student|university|uni|college|school|degree|course|"
                        "mba|masters|phd|diploma|night school|evening class|grade|year group|"
                        "学习|读书|读研|上学|大学|学校|专业|学生|年级|小学|初中|高中|初一|初二|初三|高一|高二|高三"),
    ("school trouble", "education", "trouble at school|in trouble at school|suspended for|got suspended|suspension|expelled|"
                                    "detention|principal's office|called the principal|call from the principal|headteacher|"
                                    "被停课|被记过|请家长|叫家长|被处分|在学校惹事|学校打架|被老师叫"),
    ("academic misconduct", "education", "plagiarism|plagiarised|plagiarized|plagiarising|plagiarizing|turnitin|"
                                         "academic integrity|integrity board|academic misconduct|cheated on the exam|"
                                         "cheating on the exam|抄袭|查重|学术不端|作弊"),
    ("exams", "education", "grades|gpa|report card|academic probation|绩点|学业预警|成绩单|挂科|exam|exams|mock exam|mock exams|mocks|maths mock|math mock|exam results|gcse|gcses|"
                           "a-level|a-levels|leaving cert|finals|考试|成绩|高考|中考|期末考|考研"),
    ("hometown", "home", "hometown|home town|grew up|growing up|born and raised|originally from|"
                         "老家|家乡|哪里人|出生地|土生土长"),
    # animals
    ("pet", None, "pet|pets|animal|animals|宠物|动物"),
    ("dog", "pet", "dog|dogs|puppy|pup|doggy|pooch|mutt|hound|sighthound|terrier|spaniel|collie|labrador|retriever|"
                   "poodle|beagle|husky|corgi|pug|dachshund|sausage dog|bulldog|chihuahua|greyhound|whippet|lurcher|"
                   "schnauzer|shih tzu|alsatian|german shepherd|rottweiler|doberman|staffie|jack russell|cockapoo|"
                   "labradoodle|狗|小狗|狗狗|狗子|汪星人|柯基|金毛|泰迪|哈士奇|二哈|柴犬|拉布拉多|边牧|比熊|萨摩耶|博美|德牧|法斗|雪纳瑞|土狗"),
    ("cat", "pet", "cat|cats|kitten|kitty|moggy|tabby|siamese|persian|ragdoll|maine coon|british shorthair|sphynx|"
                   "猫|小猫|猫咪|喵星人|橘猫|英短|美短|布偶|暹罗|加菲|狸花|蓝猫"),
    ("bird", "pet", "bird|parrot|budgie|canary|parakeet|cockatiel|myna|鸟|鹦鹉|八哥|画眉|文鸟"),
    ("rabbit", "pet", "rabbit|bunny|兔子|兔"),
    ("fish", "pet", "goldfish|fish tank|金鱼|鱼缸"),  # not "aquarium": as often a place one visits
    # getting about
    ("vehicle", None, "vehicle|vehicles|wheels|van|truck|pickup|bakkie|ute|suv|jeep|camper|campervan|车|车子|面包车|货车|皮卡"),
    ("car", "vehicle", "car|cars|auto|motor|honda|ford|volkswagen|nissan|bmw|audi|mercedes|skoda|renault|peugeot|"
                       "fiat|hyundai|mazda|volvo|vauxhall|subaru|lada|suzuki|citroen|dacia|toyota|kia|tesla|fiesta|"
                       "corsa|civic|corolla|yaris|clio|prius|qashqai|octavia|niva|hilux|汽车|小车|轿车|比亚迪|"
                       "大众|丰田|本田|特斯拉|五菱|宏光|长安|吉利|奇瑞|哈弗|蔚来|理想汽车|小鹏|问界|日产|别克"),
    ("motorbike", "vehicle", "motorbike|motorcycle|moped|scooter|摩托|摩托车|电动车|电瓶车"),
    ("bicycle", "vehicle", "bicycle|bike|cycle|e-bike|ebike|自行车|单车"),
    ("commute", None, "commute|commuting|get to work|travel to work|通勤|上下班"),
    ("transit", "commute", "bus|train|tram|metro|subway|tube|underground|公交|地铁|火车|高铁"),
    # food and health
    ("food", None, "food|foods|eat|eating|diet|meal|meals|dish|dishes|饮食|食物|忌口|不吃|不能吃|少吃|多吃|改吃|吃得"),
    ("seafood", "food", "seafood|shellfish|prawn|prawns|shrimp|crab|lobster|mussel|mussels|oyster|oysters|"
                        "海鲜|虾|螃蟹|蟹"),
    ("nuts", "food", "nut|nuts|peanut|peanuts|almond|almonds|cashew|walnut|坚果|花生|核桃"),
    ("dairy", "food", "dairy|milk|cheese|lactose|牛奶|奶制品|乳糖|奶酪"),
    ("meat", "food", "meat|beef|pork|chicken|lamb|mutton|肉|牛肉|猪肉|鸡肉|羊肉"),
    ("fruit", "food", "fruit|fruits|apple|banana|mango|strawberry|strawberries|kiwi|peach|orange|grape|grapes|"
                      "水果|苹果|香蕉|芒果|草莓|桃子|葡萄|橙子"),
    ("herb", "food", "herb|herbs|coriander|cilantro|parsley|basil|dill|香菜|芫荽|薄荷|香料|调料"),
    ("vegetarian", "food", "vegetarian|veggie|vegan|plant-based|吃素|素食"),
    ("drink", None, "drink|drinks|drinking|beverage|饮料|饮品|喝"),
    ("coffee", "drink", "coffee|espresso|latte|cappuccino|americano|flat white|mocha|macchiato|cold brew|starbucks|"
                        "咖啡|瑞幸|星巴克|库迪|拿铁|美式"),
    ("tea", "drink", "tea|茶|奶茶"),
    ("alcohol", "drink", "his drinking|her drinking|my drinking|their drinking|heavy drinking|binge drinking|drinking problem|alcohol|beer|wine|whisky|whiskey|booze|boozing|drunk|hungover|tipsy|pint|酒|啤酒|红酒|白酒|vodka|gin|rum|tequila|bourbon|scotch|cider|prosecco|champagne|cocktail|cocktails|喝酒|喝多了|喝醉|喝大了"),
    ("money", None, "money|finance|finances|financial|salary|pay|paid|pay rise|payrise|bonus|bonuses|wage|wages|income|earn|earns|earning|debt|debts|owe|"
                    "owed|owing|loan|loans|overdraft|"
                    "mortgage|savings|credit score|credit card|arrears|bankrupt|bankruptcy|filed chapter|filing chapter|filed for chapter|insolvent|"
                    "insolvency|borrow|borrows|borrowed|borrowing|lend|lends|lending|bills|ctc|lpa|lakh|lakhs|crore|crores|"
                    "take-home|take home pay|net pay|gross pay|per annum|工资|收入|薪水|年薪|月薪|薪资|欠钱|借钱|欠了|欠款|欠债|"
                    "外债|借款|借给|还钱|周转|贷款|房贷|存款|破产"),
    ("debt", "money", "debt|debts|in debt|arrears|欠了|欠账|还不上|花呗|借呗|信用卡欠|fallen behind on|behind on my|overdue|loan shark|loan sharks|payday loan|"
                      "debt collector|debt collectors|bailiffs|credit card debt|maxed out|欠钱|欠债|欠款|外债|高利贷|网贷|套现|"
                      "催收|拆东墙补西墙"),
    ("immigration", None, "immigration status|身份|visa|visas|h-1b|h1b|green card|work permit|residence permit|out of status|deportation|deported|"
                          "asylum|immigration|overstay|overstayed|undocumented|uscis|ircc|immigration office|immigration lawyer|visa interview|"
                          "biometrics appointment|naturalisation|naturalization|citizenship test|签证|绿卡|移民|居留|工签|黑户|出入境"),
    ("relationship", None, "relationship|relationships|love life|boyfriend trouble|girlfriend trouble|感情|恋爱|感情问题"),
    ("marriage", "relationship", "marriage|marriages|marital|married life|婚姻"),
    ("affair", "marriage", "affair|having an affair|cheating|cheated|cheater|cheats on|cheat on|unfaithful|infidelity|mistress|"
                           "side piece|出轨|外遇|劈腿|小三|偷情|婚外情"),
    ("separation", "marriage", "split up|splitting up|splits up|separating|separated|separation|divorce|divorcing|divorced|"
                         "broke up|breaking up|break-up|breakup|called it quits|an affair|the affair|his affair|her affair|cheating on him|"
                         "cheating on her|cheating on me|cheated on him|cheated on her|cheated on me|marriage counselling|"
                         "couples counselling|kicked him out|kicked her out|taking a break|taking some time apart|"
                         "time apart|on a break|ended things|called off the engagement|分手|离婚|分居|出轨|外遇"),
    ("quarrel", None, "argument|arguments|arguing|argued|falling out|fell out|row with|rowing|吵架|吵起来|吵了一架|冷战|"
                      "闹矛盾|闹别扭"),
    ("work trouble", "work", "disciplinary|written warning|final warning|formal warning|gross misconduct|misconduct|"
                             "difficulties at work|problems at work|trouble at work|capability review|capability process|"
                             "investigation at work|under investigation|"
                             "performance improvement plan|suspended from work|suspended from the|suspended without pay|"
                             "处分|记过|大过|停职|通报批评|挨批|被批评|警告处分|hr complaint|complaint against|filed a complaint|formal complaint|grievance|reported my boss|reported my manager|reported him to hr|reported her to hr|harassment|harassing|bullying at work|投诉|举报|性骚扰"),
    ("job loss", None, "laid off|made redundant|redundancy|redundancies|fired|sacked|lost his job|lost her job|lost their job|"
                       "restructure|restructured|restructuring|cut roles|job cuts|layoff|layoffs|left his job|left her job|left their job|severance|severance pay|severance package|遣散费|"
                       "lost my job|裁员|被裁|被辞退|失业|下岗|losing my job|losing his job|losing her job|losing their job|lose my job|lose his job|lose her job|job loss|losing job|lose job|lost job|was let go|got let go|been let go|were let go|out of work|unemployed|jobless|没工作|没了工作|丢了工作|工作丢了|工作没了|被开除|开除"),
    ("job search", None, "job hunt|job hunting|job search|job searching|looking for a new job|looking for a job|"
                         "looking for work|looking for another job|interviewing|job interview|job interviews|interviewed at|"
                         "interviewing at|applying for jobs|applied for jobs|job application|job applications|headhunter|"
                         "headhunted|recruiter|offer letter|first round|second round|third round|final round|first-round|second-round|"
                         "final-round|phone screen|onsite interview|panel interview|hiring manager|take-home test|"
                         "sign-on bonus|signing bonus|got the offer|counter offer|counteroffer|找工作|面试|投简历|跳槽|猎头|"
                         "换工作|一面|二面|三面|终面|谈薪"),
    ("gambling", None, "gamble|gambling|gambler|betting|bookie|bookies|casino|poker|pokies|slot machines|"
                       "赌博|赌钱|赌|彩票|赌场"),
    ("car accident", None, "car accident|car crash|crashed the car|crashed my car|crashed into|rear-ended|rear ended|"
                           "fender bender|fender-bender|collision|pile-up|totaled|totalled|hit and run|hit-and-run|"
                           "撞车|追尾|车祸|剐蹭|出车祸|撞了人|被撞"),
    ("crypto", "money", "crypto|cryptocurrency|cryptocurrencies|bitcoin|btc|ethereum|memecoin|memecoins|meme coin|dogecoin|"
                        "shitcoin|nft|nfts|币圈|炒币|比特币|虚拟币|数字货币"),
    ("housing trouble", "home", "housing|eviction|evicted|eviction notice|behind on rent|behind on the rent|rent arrears|"
                                "foreclosure|repossessed|repossession|kicked out of the flat|tenants' union|tenants union|tenant union|housing court|"
                                "notice to quit|section 21|notice of default|kept my deposit|kept my whole deposit|kept the deposit|deposit back|"
                                "deposit scheme|deposit dispute|被房东赶|催租|欠房租|房租交不上|押金|退租"),
    ("family conflict", None, "falling out|fell out|massive fight|big fight|huge fight|blew up at|screaming match|"
                              "haven't spoken|not speaking|stopped speaking|cut me off|disowned|吵架|吵翻|闹翻|冷战|断绝关系|大吵"),
    ("tax", "money", "tax|taxes|irs|hmrc|tax return|tax bill|back taxes|audit|audited|auditing|tax audit|"
                     "个税|税务|补税|查税|偷税|漏税|税务局"),
    ("legal", None, "court|court case|family court|custody|lawyer|solicitor|legal|tribunal|"
                    "案件|立案|律师|法院|probation|parole|缓刑"),
    ("lawsuit", "legal", "lawsuit|suing|sued|small claims|官司|起诉|打官司|告我|告了我|把我告了|开庭|传票"),
    ("arrest", "legal", "arrest|arrested|police|cops|cop|run-in|arraignment|arraigned|public defender|plea deal|pleaded guilty|pled guilty|misdemeanor|misdemeanour|felony|charge reduced|charges dropped|reckless driving|bailed out|bailed|bail|lockup|drink driving|drink-driving|"
                        "drunk driving|dui|dwi|over the limit|调查|取保候审|拘留|判刑|坐牢|酒驾|醉驾|酒后驾车|喝酒开车|被抓|"
                        "prison|jail|jailed|locked up|prison sentence|sentenced|convicted|conviction|criminal record|burglary|"
                        "robbery|theft|shoplifting|shoplifted|charged with|局子|监狱|坐过牢|牢饭|蹲监狱|判了|派出所|"
                        "偷东西|偷了我|偷钱|小偷"),
    ("protective order", "legal", "protective order|restraining order|no-contact order|保护令|禁止令"),
    ("domestic abuse", None, "domestic abuse|domestic violence|abusive|abuser|abused|hits his wife|hit his wife|"
                             "hitting his wife|beats his wife|beat his wife|hits his girlfriend|hit his girlfriend|家暴|打老婆|打老公|打媳妇|虐待"),
    ("health", None, "health|healthy|medical|condition|illness|doctor|gp|hospital|diagnosed|diagnosis|symptom|symptoms|"
                     "poorly|unwell|mini-stroke|op|post-op|pre-op|crutches|stitches|"
                     "flare|flares|flare-up|flare-ups|chronic|身体|健康|毛病|生病|医生|医院|体检|症状|诊断|确诊|病情|"
                     "住院|出院|手术|发烧|肺炎|感冒|看病|病了|dementia|alzheimer's|alzheimers|parkinson's|cancer|tumour|"
                     "tumor|stroke|heart attack|chemo|chemotherapy|radiotherapy|surgery|bypass|cardiac|rehab|discharged|biopsy|"
                     "hip replacement|knee replacement|operation|angioplasty|stent|hysterectomy|vasectomy|the snip|stoma|"
                     "bowel op|melanoma|hiv|psychiatric|prediabetic|pre-diabetic|hba1c|cholesterol|blood test|blood tests|"
                     "ultrasound|mri|ct scan|x-ray|icu|a&e|intensive care|admitted|surgeon|hospitalisation|"
                     "hospitalization|hospitalised|hospitalized|心脏|搭桥|胃出血|病房|"
                     "transplant|老年痴呆|阿尔茨海默|帕金森|癌|肿瘤|中风|化疗|benign|malignant|nodule|a lump|the lump|cyst|biopsy results|scan results|test results"),
    ("diabetes", "health", "diabetes|diabetic|type 1|type 2|blood sugar|blood sugars|a1c|hba1c|metformin|insulin|glucose|"
                           "prediabetes|pre-diabetes|prediabetic|糖尿病|血糖|二甲双胍|胰岛素|糖化"),
    ("fertility", "health", "fertility|ivf|trying for a baby|trying to conceive|ttc|embryo|embryos|egg retrieval|"
                            "egg collection|miscarriage|miscarried|iui|试管|备孕|流产|不孕|要孩子|要个孩子|怀不上|精子"),
    ("hospital stay", "health", "hospitalisation|hospitalization|hospitalised|hospitalized|inpatient|"
                                "psychiatric unit|psychiatric ward|psychiatric hospital|psych ward|mental health unit|icu|intensive care|"
                                "住院|出院|病房|重症监护"),
    ("pregnancy", "health", "pregnant|pregnancy|expecting a baby|due date|antenatal|12 week scan|20 week scan|morning sickness|"
                            "pregnancy test|positive test|two pink lines|first ultrasound|first scan|dating scan|the heartbeat|heartbeat was strong|怀孕|怀上了|孕期|产检|预产期|验孕|两道杠|建档|妇幼|孕检|孕吐|miscarriage|miscarried|lost the baby|losing the baby|lost the pregnancy|losing the pregnancy|有宝宝|有了宝宝|怀宝宝|怀了|流产|小产|胎停"),
    ("addiction", "health", "addiction|addict|addicted|sober|sobriety|relapse|relapsed|alcoholic|alcoholics anonymous|"
                            "aa meeting|aa meetings|detox|clean for|go to rehab|going to rehab|went to rehab|gone to rehab|in rehab|into rehab|out of rehab|"
                            "rehab place|rehab centre|rehab center|rehab clinic|rehab facility|got a sponsor|has a sponsor|new sponsor|戒酒所|戒毒所|using again|drinking again|fell off the wagon|off the wagon|又喝上了|又开始喝|酗酒|戒酒|戒毒|吸毒|上瘾|成瘾|复吸|recovery|recovering addict|recovering alcoholic|my sponsor|aa sponsor|na sponsor|narcotics anonymous|na meeting|na meetings|12 steps|twelve steps|days sober|oxy|oxycontin|opioid|opioids|heroin|cocaine|meth"),
    ("eating disorder", "health", "eating disorder|anorexia|anorexic|bulimia|bulimic|binge eating|purging|"
                                  "厌食|厌食症|暴食|催吐"),
    ("cosmetic surgery", "health", "cosmetic surgery|plastic surgery|nose job|boob job|breast augmentation|botox|"
                                   "lip filler|lip fillers|facelift|liposuction|lipo|tummy tuck|rhinoplasty|blepharoplasty|eyelid surgery|"
                                   "breast implants|hair transplant|整容|整形|双眼皮|隆鼻|"
                                   "垫鼻子|玻尿酸|抽脂|医美|削骨"),
    ("heart", "health", "heart condition|heart problem|heart problems|heart surgery|heart failure|heart murmur|ticker|cardiac|cardiologist|atrial fibrillation|afib|a-fib|arrhythmia|palpitations|"
                        "heart attack|bypass|angioplasty|stent|ablation|pacemaker|心脏|心律不齐|房颤|早搏|搭桥|支架"),
    ("allergy", "health", "allergy|allergies|allergic|anaphylaxis|epipen|过敏"),
    ("hay fever", "health", "hay fever|hayfever|pollen|sneeze|sneezing|seasonal allergies|花粉|鼻炎"),
    ("digestion", "health", "digest|digestion|intolerant|intolerance|stomach|ibs|coeliac|celiac|crohn's|reflux|"
                            "不耐受|消化|肠胃"),
    ("insect", None, "insect|insects|bee|bees|wasp|wasps|hornet|sting|stings|mosquito|虫|蜜蜂|马蜂|蚊子"),
    ("joints", "health", "joint|joints|arthritis|gout|rheumatism|rheumatoid|关节|关节炎|痛风|风湿"),
    ("mental health", "health", "mental health|mental-health|心理健康|therapy|therapist|counselling|counseling|counsellor|counselor|psychologist|psychiatrist|"
                                "anxiety|depression|depressed|panic attack|panic attacks|adhd|autism|autistic|ocd|ptsd|"
                                "bipolar|心理医生|心理咨询|焦虑|抑郁|多动症|自闭症"),
    ("blood type", "health", "blood type|blood group|血型"),
    ("appearance", None, "appearance|长相|外表"),
    ("colour", "appearance", "colour|colours|color|colors|red|blue|green|yellow|purple|pink|black|white|grey|gray|brown|"
                             "orange|navy|teal|turquoise|beige|cream|maroon|burgundy|lilac|lavender|golden|silver|"
                             "brindle|颜色|红色|蓝色|绿色|黄色|紫色|粉色|黑色|白色|灰色|棕色|橙色|橘色|咖啡色|金色|银色"),
    ("body weight", "health", "weight|weigh|weighs|weighed|kilos|kg|bmi|体重|公斤"),
    ("back", "health", "back pain|spine|disc|slipped disc|腰|腰疼|腰椎|背疼"),
    ("medication", "health", "medication|medications|medicine|medicines|meds|pills|tablets|prescription|prescribed|"
                             "antidepressants|antidepressant|antibiotic|antibiotics|statins|insulin|inhaler|penicillin|"
                             "amoxicillin|paracetamol|ibuprofen|aspirin|codeine|morphine|steroids|metformin|side effects|side effect|"
                             "dose|dosage|sertraline|"
                             "fluoxetine|citalopram|escitalopram|prozac|zoloft|lexapro|"
                             "吃药|药物|处方|降压药|青霉素|抗生素|布洛芬|阿司匹林|药"),
    ("smoking", "health", "smoke|smokes|smoking|smoker|cigarettes|cigarette|fags|vape|vaping|抽烟|吸烟|戒烟|香烟|烟瘾"),
    # beliefs: what people ask to forget whole
    ("politics", None, "politics|political|vote|voted|voting|voter|election|elections|ballot|labour|tory|tories|"
                       "conservative|conservatives|lib dem|lib dems|liberal democrats|green party|reform uk|snp|"
                       "democrat|democrats|republican|republicans|政治|投票|选举|党员|入党"),
    ("religion", None, "religion|religious|faith|church|mosque|synagogue|temple|gurdwara|pray|prayed|praying|prayer|"
                       "christian|catholic|muslim|jewish|hindu|buddhist|sikh|atheist|宗教|信仰|教会|佛教|基督教|"
                       "伊斯兰|礼拜|信佛|信教"),
    # devices
    ("device", None, "device|devices|gadget|gadgets|设备|电子产品"),
    ("phone", "device", "phone|phones|mobile phone|smartphone|iphone|android phone|samsung|pixel|xiaomi|huawei|oneplus|"
                        "nokia|motorola|手机|华为|小米|三星"),
    ("laptop", "device", "laptop|laptops|macbook|chromebook|thinkpad|笔记本电脑"),
    ("tablet", "device", "tablet|ipad|kindle|平板"),
    # pastimes
    ("pastime", None, "hobby|hobbies|pastime|free time|spare time|leisure|for fun|爱好|兴趣|业余"),
    ("sport", "pastime", "sport|sports|exercise|workout|training|fitness|keep fit|activity|activities|race|races|"
                         "运动|锻炼|健身"),
    ("swimming", "sport", "swim|swimming|swimmer|pool|游泳|泳池"),
    ("running", "sport", "run|running|jog|jogging|marathon|parkrun|跑步|慢跑|马拉松"),
    ("cycling", "sport", "cycling|cyclist|ride|骑行"),
    ("hiking", "sport", "hike|hiking|hillwalking|trek|trekking|climb|climbing|徒步|爬山|登山"),
    ("yoga", "sport", "yoga|pilates|瑜伽|普拉提"),
    ("ball games", "sport", "ball game|ball games|team sport|team sports|handball|lacrosse|球类"),
    ("football", "ball games", "football|soccer|five-a-side|futsal|足球|踢球"),
    ("rugby", "ball games", "rugby|橄榄球"),
    ("netball", "ball games", "netball"),
    ("basketball", "ball games", "basketball|篮球"),
    ("volleyball", "ball games", "volleyball|排球"),
    ("hockey", "ball games", "hockey|ice hockey|冰球|曲棍球"),
    ("cricket", "ball games", "cricket|板球"),
    ("baseball", "ball games", "baseball|softball|棒球|垒球"),
    ("racket sports", "sport", "tennis|badminton|squash|padel|table tennis|ping pong|pickleball|网球|羽毛球|乒乓球|壁球"),
    ("music", "pastime", "music|instrument|instruments|play|band|choir|音乐|乐器|乐队|合唱"),
    ("instrument", "music", "instrument|instruments|乐器|民乐|西洋乐"),
    ("guitar", "instrument", "guitar|guitars|吉他"),
    ("piano", "instrument", "piano|keyboard|keys|钢琴|电子琴"),
    ("violin", "instrument", "violin|fiddle|小提琴"),
    ("cello", "instrument", "cello|大提琴"),
    ("drums", "instrument", "drum|drums|drummer|鼓|架子鼓"),
    ("accordion", "instrument", "accordion|squeezebox|手风琴"),
    ("ukulele", "instrument", "ukulele|uke|尤克里里"),
    ("flute", "instrument", "flute|whistle|recorder|笛子|长笛"),
    ("saxophone", "instrument", "saxophone|sax|萨克斯"),
    ("dombra", "instrument", "dombra|balalaika|mandolin|banjo"),
    ("erhu", "instrument", "erhu|二胡"),
    ("guzheng", "instrument", "guzheng|zither|古筝"),
    ("pipa", "instrument", "pipa|lute|琵琶"),
    ("hulusi", "instrument", "hulusi|葫芦丝|唢呐|箫"),
    ("languages", None, "language|languages|speak|speaks|fluent|mother tongue|first language|native language|"
                        "bilingual|语言|外语|方言|母语"),
    ("english", "languages", "english|英语|英文"),
    ("french", "languages", "french|法语"),
    ("german", "languages", "german|德语"),
    ("spanish", "languages", "spanish|西班牙语"),
    ("italian", "languages", "italian|意大利语"),
    ("portuguese", "languages", "portuguese|葡萄牙语"),
    ("russian", "languages", "russian|俄语"),
    ("japanese", "languages", "japanese|日语|日文"),
    ("korean", "languages", "korean|韩语"),
    ("mandarin", "languages", "mandarin|chinese|普通话|汉语|中文"),
    ("cantonese", "languages", "cantonese|粤语"),
    ("arabic", "languages", "arabic|阿拉伯语"),
    ("reply", None, "answer|answers|reply|replies|respond|response|responses|format|talk to me|tone|"
                   "回答|回复|回我|风格|语气"),
    ("short", "reply", "short|brief|concise|succinct|one-line|to the point|简短|简洁|短一点"),
    ("long", "reply", "long|detailed|in-depth|thorough|详细|长篇"),
)


def _en_pattern(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    stems = sorted({" ".join(stem(w) for w in word.split()) for word in words}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(_EN_NOT_PRECEDED.get(s, "") + re.escape(s) for s in stems)
                      + r")\b(?!-in-law)(?<!\bex(?=-))")  # a
    # brother-in-law is no brother; an ex-smoker, ex-army or an ex-colleague no ex


_EN_NOT_PRECEDED = {"court": "".join(f"(?<!{stem(w)} )" for w in ("tennis", "squash", "basketball", "netball", "badminton",
                                                                  "food", "five-a-side"))}
"""An English word that is also the end of an unrelated phrase: the court of a court case is no tennis court."""
_NOT_FOLLOWED = {"老公": "(?!司)", "身份": "(?!证)", "对象": "(?!存储)", "家里": "(?!蹲)", "我妹": "(?!夫)", "我姐": "(?!夫)",
                 "妹妹": "(?!夫)", "我弟": "(?!媳)", "弟弟": "(?!媳)", "住": "(?!院)"}
"""A Chinese word that is also the start of an unrelated one: 老公 in 老公司 ("the old company"), 我妹 in
我妹夫 (a sister's husband)."""
_NOT_PRECEDED = {"住": "(?<![不得])"}
"""A Chinese word that is also the end of an unrelated one: 住 in 顶不住, 记不住, 忍不住 ("can't bear/keep")."""


_PIECE = re.compile(r"[a-z]+")
"""The stretches of a stemmed text between word boundaries: a whole-word match of a stem starts at one."""


class _Concept:
    __slots__ = ("name", "parent", "en", "zh", "zh_pattern", "en_starts", "zh_starts")

    def __init__(self, name: str, parent: str | None, words: str) -> None:
        self.name, self.parent = name, parent
        split = words.split("|")
        english = [w for w in split if not has_cjk(w)]
        self.en = _en_pattern(english)
        self.en_starts = frozenset(_PIECE.findall(" ".join(stem(w) for w in word.split()))[0] for word in english)
        """The first piece of each of its stems: a text without any of them cannot match `en`."""
        self.zh = tuple(sorted((w for w in split if has_cjk(w)), key=len, reverse=True))
        self.zh_pattern = re.compile("|".join(_NOT_PRECEDED.get(w, "") + re.escape(w) + _NOT_FOLLOWED.get(w, "")
                                              for w in self.zh)) if self.zh else None
        self.zh_starts = frozenset(w[0] for w in self.zh)


CONCEPTS = {name: _Concept(name, parent, words) for name, parent, words in _ENTRIES}
_WORDS = {name: tuple(words.split("|")) for name, _, words in _ENTRIES}
_PHRASE_WORDS = {name: frozenset(stem(w) for word in words if " " in word for w in word.split() if w not in STOPWORDS)
                 for name, words in _WORDS.items()}
"""The words of a concept's phrases, without the common words that only frame them ("my drinking": drinking)."""
FAMILY = frozenset({"family", "parent", "child", "spouse", "sibling", "grandparent"})
"""The family concepts: the words above every particular relation (mother, son, husband…)."""
FAMILY_WORDS = FAMILY - {"family"}
DOMAINS = frozenset({"family", "work", "home", "education", "commute", "food", "drink", "health", "pastime", "languages",
                     "reply", "money", "legal"})
"""Areas of life rather than things: told in too many words ("读大三", "my shift at the yard") for the
absence of the lexicon's words from every memory to mean they were never mentioned."""
"""Family words one step above a particular relation: "our kids" names the son too."""


def _stemmed(text: str) -> str:
    return " ".join(stem(w.rstrip("'-")) for w in re.findall(r"[a-z][a-z'-]*", plain_idioms(text.lower())))  # "kids'"


_MONEY_SAID = re.compile(
    r"[£$€¥₹]\s?\d|\b\d[\d,.]*\s?(?:k|grand|quid|bucks|dollars|pounds|euros|rupees|lakhs?|crores?)\b"
    r"(?!\s*(?:run|race|runs|races|steps|miles|followers|views|words|subscribers))|\bchapter (?:7|11|13)\b"
    r"|\d+(?:\.\d+)?\s?[万千]?(?:块|元)|[一二三四五六七八九十两几百千]+多?万|\d+(?:\.\d+)?\s?多?万(?:块|元)?", re.IGNORECASE)
"""A sum of money, which the lexicon's words cannot hold ("he makes 210k", "$338", "二十多万", "Chapter 7"
bankruptcy): not a 10k run nor 5k followers."""


_VISA_SAID = re.compile(r"\b(?:h-?1b|f-?1 visa|j-?1 visa|l-?1 visa|o-?1 visa|e-?2 visa|i-?20|i-?485|i-?130|i-?765|"
                        r"eb-?[1-5]|stem opt|opt extension)\b", re.IGNORECASE)
"""A visa or immigration form by its code ("H-1B", "I-485"), which the lexicon's letters-only words cannot hold."""
_SOMEONES_DRINKING = re.compile(r"\b(?:\w+(?:'s|’s)|his|her|my|their|your)\s+drinking\b(?!\s+(?:water|tea|coffee|juice|milk))",
                                re.IGNORECASE)
"""Someone's drinking ("my dad's drinking has got worse"): the drink, not what they drink water from."""
_A_RACE = re.compile(r"\b(?:a|an|the|my|his|her|our|their|first|next|last|another|this|that|park|charity|fun)\s+"
                     r"\d+\s?k\b(?!\s*(?:a year|per year|salary|bonus|debt|loan|in debt|in the red))", re.IGNORECASE)
"""A race told by its distance ("my first 10k", "the charity 5k"), not a sum, unless money follows it."""


@lru_cache(maxsize=4096)
def concepts_in(text: str) -> frozenset[str]:
    """The concepts a text mentions, by any of their words, in either language, and money by a sum of it."""
    stemmed = _stemmed(text)
    pieces = set(_PIECE.findall(stemmed))
    characters = set(text) if has_cjk(text) else set()
    found = set()
    for concept in CONCEPTS.values():  # each pattern only where the text holds where one of its words starts
        if (concept.en is not None and not pieces.isdisjoint(concept.en_starts) and concept.en.search(stemmed)
                or concept.zh_pattern and not characters.isdisjoint(concept.zh_starts) and concept.zh_pattern.search(text)):
            found.add(concept.name)
    if _MONEY_SAID.search(_A_RACE.sub(" ", text)):
        found.add("money")
    if _VISA_SAID.search(text):
        found.add("immigration")
    if _SOMEONES_DRINKING.search(text):
        found.add("alcohol")
    return frozenset(found)


def ancestors(name: str) -> list[str]:
    chain, parent = [], CONCEPTS[name].parent
    while parent is not None:
        chain.append(parent)
        parent = CONCEPTS[parent].parent
    return chain


PEOPLE_CONCEPTS = frozenset(n for n in CONCEPTS if n in ("family", "boss", "colleague") or "family" in ancestors(n))
"""The concepts that name people in the user's life (a mother, a boss), not what happened to them."""
CN_PEOPLE_WORDS = re.compile("|".join(sorted({w for n in PEOPLE_CONCEPTS for w in _WORDS[n] if has_cjk(w)}, key=len, reverse=True)))
"""The Chinese words for the people in a user's life (儿媳, 我弟, 同事): who a story is of, not what it tells."""


def meets(asked: str, said: str) -> bool:
    """Whether a memory that mentions `said` answers a question about `asked`: the same concept, a
    narrower one ("pets" — a dog), or, for family words only, the one just above it ("my son" — "our
    kids"; "family" is too broad to name anyone)."""
    if asked == said or asked in ancestors(said):
        return True
    return said in FAMILY_WORDS and said == CONCEPTS[asked].parent


_KIN = (r"(?:(?:late|old|new|little|big|older|younger|twin)\s+)?(?:mum|mom|mother|mam|dad|father|parents|brothers?|"
        r"sisters?|sons?|daughters?|kids?|children|wife|husband|partner|girlfriend|boyfriend|gran|granny|grandma|"
        r"grandmother|grandad|grandpa|grandfather|grandparents|aunt|auntie|uncle|cousins?|niece|nephew|family|twins|"
        r"baby|in-laws|siblings?|brother-in-law|sister-in-law|fianc[eé]e?)\b")
_ZH_KIN = r"(?:妈妈|妈|爸爸|爸|父母|哥哥|姐姐|弟弟|妹妹|儿子|女儿|老婆|老公|孩子|女朋友|男朋友|对象|媳妇)"
_OTHERS_KIN = re.compile(
    rf"\b(?:his|her|their|its|(?-i:[A-Z][a-z]+)(?:'s|’s))\s+{_KIN}|(?:他|她|它|他们|她们|它们|[\u4e00-\u9fff]{{1,3}}(?<!我)的)(?:的)?{_ZH_KIN}",
    re.IGNORECASE,
)
_HAS_KIN = re.compile(
    rf"\b((?:my|our)\s+(?:\w+\s+)?{_KIN}(?:\s+(?-i:[A-Z][a-z]+))?|(?-i:[A-Z][a-z]+)|he|she|they)((?:\s+(?:has|had|have)"
    rf"(?:\s+got)?|'s\s+got|\s+got)\s+(?:a|an|one|two|three|four|\d+)\s+(?:little\s+|baby\s+|young\s+|grown-up\s+|new\s+)?)"
    rf"({_KIN})",
    re.IGNORECASE,
)
"""Kin someone else has ("My sister Jo has a daughter", "Dan's got two sons"): theirs, not the user's."""
_MY_KIN = re.compile(r"\b(?:my|our)\b|我", re.IGNORECASE)
_KIN_OF_KIN = re.compile(rf"(?:'s|’s)\s+{_KIN}|的{_ZH_KIN}", re.IGNORECASE)
"""A question about a relative's relative ("my sister's husband", 我姐姐的老公): someone else's, asked for."""


def kin_of_others(text: str, *, question: bool = False) -> frozenset[str]:
    """The relations a text gives someone else ("Rhona's sister Kirsty", "his wife", 儿子的女朋友) or, in a
    question, asks for ("my brother's wife", 我姐姐的老公)."""
    phrases = (_KIN_OF_KIN if question else _OTHERS_KIN).findall(text)
    if not question:
        phrases += [m.group(3) for m in _HAS_KIN.finditer(text)]
    kin = [m.group(0) for phrase in phrases if (m := _LAST_KIN.search(phrase))]
    return frozenset(c for word in kin for c in concepts_in(word) if c in PEOPLE_CONCEPTS)


_LAST_KIN = re.compile(rf"(?:\b{_KIN}|{_ZH_KIN})$", re.IGNORECASE)


def own_kin_only(query: str, content: str) -> str:
    """`content` without the relatives it gives someone else ("his mum Siobhan", "Ollie's parents", 他妈) when
    the question asks about the user's own ("Where does my mum live?", 我妈在哪里): those are not the user's
    mum. Unchanged for any other question ("What's Ollie's mum called?")."""
    if not _MY_KIN.search(query) or _KIN_OF_KIN.search(query) or not (concepts_in(query) & PEOPLE_CONCEPTS):
        return content
    return _OTHERS_KIN.sub(" ", _HAS_KIN.sub(lambda m: m.group(1) + m.group(2), content))


def concept_overlap(asked: frozenset[str], said: frozenset[str]) -> set[str]:
    """The asked concepts that the said ones meet."""
    return {a for a in asked if any(meets(a, s) for s in said)}


def concept_key(name: str) -> str:
    """The key of a concept's weight beside the query's terms (see `scoring.keyword_overlap`)."""
    return f"concept:{name}"


def words_of(name: str) -> tuple[str, ...]:
    """A concept's own words, as the lexicon spells them."""
    return _WORDS[name]


def index_words(name: str, *, own: bool = False) -> list[str]:
    """The index terms (as `terms.search_terms` spells them) that show a concept — or, with `own`, only
    its own words, not a narrower concept's — in a memory."""
    words = [w for n in ([name] if own else _with_descendants(name)) for w in _WORDS[n]]
    return list(dict.fromkeys(t for w in words for t in ([stem(p) for p in w.split() if p not in STOPWORDS]
                                                         if not has_cjk(w) else [w[:2]])))


def _with_descendants(name: str) -> list[str]:
    return [name, *[c for c in CONCEPTS if name in ancestors(c)]]


def covers(name: str, term: str) -> bool:
    """Whether a query's index term (a stemmed word, a CJK bigram or character) is one of the concept's
    words, or a word of one of its phrases ("other half")."""
    concept = CONCEPTS[name]
    if has_cjk(term):
        return any(term in word for word in concept.zh)
    return concept.en is not None and concept.en.fullmatch(term) is not None or term in _PHRASE_WORDS[name]


_GENERIC = {"seafood": ("seafood", "shellfish", "海鲜"), "nuts": ("nut", "nuts", "坚果"), "dairy": ("dairy", "奶制品"),
            "meat": ("meat", "肉"), "fruit": ("fruit", "fruits", "水果")}
"""Words that name a whole kind of food: "allergic to shellfish" answers a question about shrimp."""


def _members(name: str, text: str) -> set[str]:
    """Which particular things of a kind of food a text names ("crab", 螃蟹), by their stem; a Chinese word inside
    a longer one counts once (蟹 in 螃蟹)."""
    stemmed = set(_stemmed(text).split())
    found = {stem(w) for w in _WORDS[name] if not has_cjk(w) and w not in _GENERIC[name] and stem(w) in stemmed}
    chinese = [w for w in _WORDS[name] if has_cjk(w) and w not in _GENERIC[name] and w in text]
    return found | {w for w in chinese if not any(w != o and w in o for o in chinese)}


def _another_member(asked: frozenset[str], query: str, content: str) -> str:
    """"about crab, not shrimp": the question and the memory name the same kind of food, but different things of it,
    and neither names the whole kind."""
    for name in sorted(asked & _GENERIC.keys()):
        if any(g in query.lower() or g in content.lower() for g in _GENERIC[name]):
            continue
        wanted, said = _members(name, query), _members(name, content)
        if wanted and said and not wanted & said:
            return f"about {sorted(said)[0]}, not {sorted(wanted)[0]}"
    return ""


def near_miss(query: str, content: str) -> str:
    """"about a dog, not a cat": the question names a particular thing (a concept with a parent) and the
    memory names another thing of the same kind but not it. Empty when there is no such conflict."""
    asked = concepts_in(query)
    if not any(CONCEPTS[a].parent for a in asked):
        return ""  # nothing particular asked: no memory can name the wrong one (and its text need not be read)
    said = concepts_in(content)
    met = concept_overlap(asked, said)
    for a in sorted(asked):
        parent = CONCEPTS[a].parent
        if parent is None or a in met or any(CONCEPTS[m].parent == parent for m in met):
            continue  # "short or long answers?" — a memory about either is on topic
        others = sorted(s for s in said if s != a and CONCEPTS[s].parent == parent and not meets(s, a))
        if others:
            return f"about {others[0]}, not {a}"
    return _another_member(asked, query, content)
